-- Hand-written (issue 16): titles by notebook in NOCASE order, so a one- or two-character search
-- key finds the titles starting with it by a range per readable notebook instead of scanning every
-- note's title and details (services/search/literal.ts, titlePrefixSearch).
CREATE INDEX `notes_notebook_title` ON `notes` (`notebook_id`, `title` COLLATE NOCASE);

import { kindOfName } from "../../../src/services/vaults/attachment-types";
import { linksOutsideCode } from "../../../src/services/vaults/link-rewrite";
import { useElementId } from "../island-id";
import { embedUrl, isVaultPath } from "../vault-embeds";

/** The files a note's Markdown embeds (![[x.png|600]], ![](x.png)), each once, in order: target, kind and size. */
function embedsOf(details: string) {
  const seen = new Set<string>();
  return linksOutsideCode(details).flatMap((link) => {
    const kind = kindOfName(link.target);
    if (!link.embed || !kind || (link.kind === "markdown" && !isVaultPath(link.target)) || seen.has(link.target)) return [];
    seen.add(link.target);
    const size = link.kind === "wikilink" && link.label !== undefined ? /^\s*(\d{1,5})(?:x\d{1,5})?\s*$/.exec(link.label)?.[1] : undefined;
    return [{ target: link.target, kind, width: size ? Number(size) : undefined }];
  });
}

/**
 * While a note's details are edited as Markdown (the text is its source), the files it embeds
 * show under it: images, players for audio and video, links for other files (the rendered
 * details show them in place otherwise). Nothing when it embeds none.
 */
export function EmbeddedFiles({ noteId, details }: { noteId: number; details: string }) {
  const headingId = useElementId("embedded-files-heading");
  const embeds = embedsOf(details);
  if (embeds.length === 0) return null;
  return (
    <section className="embedded-files" aria-labelledby={headingId}>
      <h2 id={headingId} className="note-properties-heading">
        Embedded files
      </h2>
      <ul>
        {embeds.map(({ target, kind, width }) => {
          const name = target.split("/").at(-1)!;
          const src = embedUrl(noteId, target);
          return (
            <li key={target}>
              {kind === "image" && <img className="vault-embed" src={src} alt={name} width={width} loading="lazy" />}
              {kind === "audio" && (
                // biome-ignore lint/a11y/useMediaCaption: a vault's recording has no captions to give; its name labels it.
                <audio className="vault-embed" controls preload="metadata" src={src} title={name} />
              )}
              {kind === "video" && (
                // biome-ignore lint/a11y/useMediaCaption: a vault's video has no captions to give; its name labels it.
                <video className="vault-embed" controls preload="metadata" src={src} title={name} width={width} />
              )}
              {kind === "pdf" && (
                <a className="vault-embed-file" href={src}>
                  {name}
                </a>
              )}
              {kind !== "pdf" && <span className="embedded-file-name">{name}</span>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

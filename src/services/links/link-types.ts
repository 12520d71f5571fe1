/**
 * The link types of spec 3 with their reversed labels (how the link reads from its target).
 * Pure data, shared by the server and the islands.
 */
export const LINK_TYPES = [
  { type: "no link", reversed: "no link" },
  { type: "related to", reversed: "related to" },
  { type: "a specialization of", reversed: "a generalization of" },
  { type: "an application of", reversed: "applied to" },
  { type: "an instance of", reversed: "has instances" },
  { type: "a part of", reversed: "has parts" },
  { type: "tagged by", reversed: "tagging" },
  { type: "an attribute of", reversed: "has attributes" },
  { type: "the opposite of", reversed: "the opposite of" },
  { type: "author of", reversed: "brought by" },
  { type: "using", reversed: "used by" },
  { type: "an example of", reversed: "has examples" },
  { type: "before", reversed: "after" },
  { type: "similar to", reversed: "similar to" },
  { type: "confused with", reversed: "confused with" },
] as const;

export type LinkType = (typeof LINK_TYPES)[number]["type"];
export const LINK_TYPE_NAMES: LinkType[] = LINK_TYPES.map((l) => l.type);

export function isLinkType(value: string): value is LinkType {
  return (LINK_TYPE_NAMES as string[]).includes(value);
}

/** The label of a link read from its target, e.g. "a generalization of" for "a specialization of". */
export function reversedLabel(linkType: string): string {
  return LINK_TYPES.find((l) => l.type === linkType)?.reversed ?? linkType;
}

/**
 * The client's address for rate limits: the socket's address, or, when the socket is a trusted
 * reverse proxy (ENGRAM_TRUSTED_PROXIES), the right-most untrusted address of X-Forwarded-For.
 */

/** One trusted address or CIDR range, as a bit prefix of the 32- or 128-bit address. */
export interface AddressRange {
  version: 4 | 6;
  base: bigint;
  prefix: number;
}

function parseIPv4(text: string): bigint | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(Number(part));
  }
  return value;
}

function parseIPv6(text: string): bigint | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || (text.match(/::/g) ?? []).length > 1) return undefined;
  let groups: number[] = [];
  const toGroups = (part: string): number[] | undefined => {
    if (part === "") return [];
    const out: number[] = [];
    const pieces = part.split(":");
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      if (i === pieces.length - 1 && piece.includes(".")) {
        const v4 = parseIPv4(piece);
        if (v4 === undefined) return undefined;
        out.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
      } else if (/^[0-9a-fA-F]{1,4}$/.test(piece)) out.push(parseInt(piece, 16));
      else return undefined;
    }
    return out;
  };
  if (text.includes("::")) {
    const [head, tail] = text.split("::") as [string, string];
    const h = toGroups(head);
    const t = toGroups(tail);
    if (!h || !t || h.length + t.length > 7) return undefined;
    groups = [...h, ...new Array(8 - h.length - t.length).fill(0), ...t];
  } else {
    const all = toGroups(text);
    if (all?.length !== 8) return undefined;
    groups = all;
  }
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
}

/** An IPv4 or IPv6 address (IPv4-mapped IPv6 counts as IPv4), or undefined when it is not one. */
export function parseAddress(text: string): { version: 4 | 6; value: bigint } | undefined {
  const trimmed = text
    .trim()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/%.*$/, "");
  const v4 = parseIPv4(trimmed);
  if (v4 !== undefined) return { version: 4, value: v4 };
  const v6 = parseIPv6(trimmed);
  if (v6 === undefined) return undefined;
  if (v6 >> 32n === 0xffffn) return { version: 4, value: v6 & 0xffffffffn };
  return { version: 6, value: v6 };
}

/** The address in one canonical text form (IPv4-mapped IPv6 as plain IPv4), so one client is one key. */
export function normalizeAddress(text: string): string {
  const parsed = parseAddress(text);
  if (!parsed) return text.trim();
  if (parsed.version === 4) {
    const v = parsed.value;
    return [24n, 16n, 8n, 0n].map((shift) => String((v >> shift) & 0xffn)).join(".");
  }
  const groups: string[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(((parsed.value >> shift) & 0xffffn).toString(16));
  return groups.join(":");
}

/** Parses "10.0.0.1, 192.168.0.0/16, ::1, fd00::/8"; throws an Error naming the bad entry. */
export function parseTrustedProxies(text: string): AddressRange[] {
  const ranges: AddressRange[] = [];
  for (const entry of text
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [addressText, prefixText, extra] = entry.split("/");
    const address = parseAddress(addressText!);
    const bits = address?.version === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? bits : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
    if (!address || extra !== undefined || !(prefix >= 0 && prefix <= bits) || /^\[|%/.test(addressText!)) {
      throw new Error(`"${entry}" is not an IP address or CIDR range`);
    }
    const mask = prefix === 0 ? 0n : ((1n << BigInt(prefix)) - 1n) << BigInt(bits - prefix);
    ranges.push({ version: address.version, base: address.value & mask, prefix });
  }
  return ranges;
}

export function isTrusted(address: string, ranges: readonly AddressRange[]): boolean {
  const parsed = parseAddress(address);
  if (!parsed) return false;
  const bits = parsed.version === 4 ? 32 : 128;
  return ranges.some((range) => {
    if (range.version !== parsed.version) return false;
    const mask = range.prefix === 0 ? 0n : ((1n << BigInt(range.prefix)) - 1n) << BigInt(bits - range.prefix);
    return (parsed.value & mask) === range.base;
  });
}

/**
 * The client address of a request: the socket's, unless the socket is a trusted proxy; then the
 * X-Forwarded-For entries are read from the right (the ones the trusted proxies appended) and the
 * first untrusted one is the client. Entries a client could forge (left of it) are never used.
 */
export function clientAddressOf(socketAddress: string | undefined, forwardedFor: string | null, trusted: readonly AddressRange[]): string {
  const socket = socketAddress ? normalizeAddress(socketAddress) : "unknown";
  if (!socketAddress || !forwardedFor || !isTrusted(socket, trusted)) return socket;
  const hops = forwardedFor
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  let client = socket;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (!parseAddress(hop)) break; // garbage: stop at the last trustworthy address
    client = normalizeAddress(hop);
    if (!isTrusted(client, trusted)) break;
  }
  return client;
}

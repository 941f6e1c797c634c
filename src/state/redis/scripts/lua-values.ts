/**
 * How values cross into and out of the credit and job scripts. Script arguments are strings, so a nullable string
 * is sent as '' for null and '=' followed by the text otherwise: an empty string and null stay different, as they
 * are in SQLite. Replies come back as RESP2 arrays, hashes as HGETALL's flat field/value list.
 */

/** What a script may answer: integers, bulk strings, nil, and arrays of those. */
export type LuaReply = number | string | null | LuaReply[];

/** Encodes a nullable string argument (decoded in Lua by `opt`, see OPT_LUA). */
export const nullable = (s: string | null | undefined): string => (s === null || s === undefined ? '' : `=${s}`);

/** Lua side of `nullable`: `opt(ARGV[i])` is nil for null, else the text. */
export const OPT_LUA = `
local function opt(v)
  if v == '' then return nil end
  return string.sub(v, 2)
end
`;

/** A flat HGETALL answer (field, value, field, value, …) as a record; nil or an empty hash is undefined. */
export function hashOf(reply: LuaReply | undefined): Record<string, string> | undefined {
  if (!Array.isArray(reply) || reply.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < reply.length; i += 2) out[String(reply[i])] = String(reply[i + 1]);
  return out;
}

/** The reply as an array (a script's tagged answer `{'tag', …}`); anything else is a bug in the script. */
export function arrayOf(reply: unknown): LuaReply[] {
  if (!Array.isArray(reply)) throw new Error(`Redis script answered ${JSON.stringify(reply)}, expected an array`);
  return reply as LuaReply[];
}

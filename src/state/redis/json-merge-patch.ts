/**
 * RFC 7396 JSON merge patch, as SQLite's json_patch applies it to a job's result: members of the patch replace the
 * target's, a null member removes one, and nested objects merge. Done in JS rather than in Lua, whose cjson loses
 * number precision and turns empty arrays into objects; jobs.ts writes the merged result only if nobody wrote the
 * result since it was read (the job's `rev`).
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    // defineProperty, not assignment: a "__proto__" member is data here, never the object's prototype.
    else
      Object.defineProperty(out, key, {
        value: mergePatch(out[key], value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The console's calls: operations of the API by name under /app/api/op/<name> (the same rules, credits and limits
 * as REST), and a few console lists. The session cookie is HttpOnly; this module holds only the session's CSRF
 * token, sent on every state-changing call.
 */
let csrf = '';

export class ApiError extends Error {
  constructor(status, error) {
    super(error?.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = error?.code;
    this.hint = error?.hint;
    this.details = error?.details;
  }
}

/**
 * A key may have only so many requests in flight (the spec's 2; a third is answered 429), and the console's session
 * is one key: its calls wait for a free place rather than send one more (a page that loads three things at once).
 * The session's answer says the limit (`in_flight_limit`); until it has, one call at a time.
 */
let maxInFlight = 1;
let inFlight = 0;
const waiting = [];

async function place() {
  if (inFlight < maxInFlight) inFlight++;
  else await new Promise((resolve) => waiting.push(resolve));
}

/** Hands the place to the next call waiting, or frees it. */
function leave() {
  const next = waiting.shift();
  if (next) next();
  else inFlight--;
}

async function send(path, init = {}) {
  await place();
  let res;
  let body;
  try {
    res = await fetch(path, { credentials: 'same-origin', ...init });
    body = await res.json().catch(() => ({}));
  } finally {
    leave();
  }
  // A session that revoked its own key is still signed in: the page says to create the next key.
  if (res.status === 401 && body.error?.details?.session !== 'keyless') {
    location.assign('/app/sign-in');
    throw new ApiError(401, body.error);
  }
  if (!res.ok || body.ok === false) throw new ApiError(res.status, body.error);
  return body;
}

export async function loadSession() {
  const body = await send('/app/api/session');
  csrf = body.csrf_token;
  if (Number.isInteger(body.in_flight_limit) && body.in_flight_limit > 0) {
    maxInFlight = body.in_flight_limit;
    // A higher limit lets calls that waited go now.
    while (inFlight < maxInFlight && waiting.length > 0) {
      inFlight++;
      waiting.shift()();
    }
  }
  return body;
}

/**
 * Runs one operation: GET and DELETE ones take the input as query (as REST does), the others as a JSON body; every
 * call but a GET carries the CSRF header.
 */
export function call(name, input = {}, method = 'GET') {
  const path = `/app/api/op/${encodeURIComponent(name)}`;
  if (method === 'GET' || method === 'DELETE') {
    const q = new URLSearchParams(Object.entries(input).map(([k, v]) => [k, String(v)]));
    const url = q.size ? `${path}?${q}` : path;
    return method === 'GET' ? send(url) : send(url, { method, headers: { 'X-CSRF-Token': csrf } });
  }
  return send(path, {
    method,
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
    body: JSON.stringify(input),
  });
}

export const get = (path) => send(`/app/api/${path}`);

export async function signOut() {
  await send('/app/api/session', { method: 'DELETE', headers: { 'X-CSRF-Token': csrf } }).catch(() => undefined);
  location.assign('/app/sign-in');
}

/** A POST of the family A API with a key; any answer but 200 stops the benchmark with its body. */
export function poster(baseUrl: string, key: string) {
  return async function post(path: string, body: unknown): Promise<any> {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (res.status !== 200) throw new Error(`${path} ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
}

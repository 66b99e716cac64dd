/** A bench's direct line to the emulator's API (set-up and seeding, never timed). */
export function emulatorApi(emuEnv) {
  // A pooled connection the emulator closed while a timed run blocked this loop fails once on write: once more on a new one.
  const api = async (method, path, body, retried = false) => {
    let res;
    try {
      res = await fetch(emuEnv.SVC_BASE_URL + path, {
        method,
        headers: { authorization: `Bearer ${emuEnv.SVC_API_KEY}`, 'svc-api-version': '2026-09-01-beta', 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      if (retried) throw e;
      return api(method, path, body, true);
    }
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
    return text ? JSON.parse(text) : undefined;
  };
  return api;
}

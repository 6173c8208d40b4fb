// HTTP API client and the guest session (token kept in localStorage; the server also sets a cookie).
const TOKEN_KEY = "sefode.token";
const NAME_KEY = "sefode.name";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code || `http/${status}`;
  }
}

export function getToken() {
  return localStorage.getItem(TOKEN_KEY);
}

export function savedName() {
  return localStorage.getItem(NAME_KEY) || "";
}

export async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const init = { method, headers, credentials: "same-origin" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(`/api${path}`, init);
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json().catch(() => null) : await response.text();
  if (!response.ok) {
    const err = data && typeof data === "object" ? data.error || data : {};
    throw new ApiError(response.status, err.code, err.message);
  }
  return data;
}

let me = null;

export function currentPlayer() {
  return me;
}

/** The current guest session, checked with the server; null when there is none yet. */
export async function loadSession() {
  if (!getToken()) return null;
  try {
    me = await api("GET", "/me");
    if (me && me.name) localStorage.setItem(NAME_KEY, me.name);
    return me;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403 || error.status === 404)) {
      localStorage.removeItem(TOKEN_KEY);
      me = null;
      return null;
    }
    throw error;
  }
}

/** Drop a session the server no longer knows (e.g. its database was reset). */
export function forgetSession() {
  localStorage.removeItem(TOKEN_KEY);
  me = null;
}

/** Start a guest session under this nickname (or keep the current one when the name is unchanged). */
export async function ensureSession(name) {
  const wanted = (name || "").trim();
  if (me && (!wanted || wanted === me.name)) return me;
  if (!me && getToken()) {
    await loadSession();
    if (me && (!wanted || wanted === me.name)) return me;
  }
  const data = await api("POST", "/session", { name: wanted || savedName() || "" });
  localStorage.setItem(TOKEN_KEY, data.token);
  localStorage.setItem(NAME_KEY, data.name);
  me = { player_id: data.player_id, name: data.name };
  return me;
}

// The API client: JSON in and out, Accept-Language from the language switch, problems thrown.

let language = "en";

export function setLanguage(lang) { language = lang; }
export function getLanguage() { return language; }

/** A refusal from the API (problem+json): title, detail, code, status and the rest. */
export class Problem extends Error {
  constructor(body, status) {
    super(body.detail || body.title || `HTTP ${status}`);
    this.body = body;
    this.status = status;
    this.code = body.code || null;
  }
}

export async function call(method, path, { body, token, text = false } = {}) {
  const headers = { "Accept-Language": language };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status === 204) return null;
  const type = res.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await res.json() : { detail: await res.text() };
  if (!res.ok) throw new Problem(data, res.status);
  return text ? data.detail : data;
}

export const get = (path, opts) => call("GET", path, opts);
export const post = (path, body, opts = {}) => call("POST", path, { ...opts, body });

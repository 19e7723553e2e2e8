// The page's words in the chosen language (words.js holds both languages); the API's refusals come
// localized from the server (Accept-Language).
import { getLanguage } from "./api.js";
import { word } from "./words.js";

export function t(key) {
  return word(key, getLanguage());
}

/** Every element with data-i18n gets its words (data-i18n-attr: into that attribute instead). */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    const attr = el.dataset.i18nAttr;
    if (attr) el.setAttribute(attr, t(el.dataset.i18n)); else el.textContent = t(el.dataset.i18n);
  }
}

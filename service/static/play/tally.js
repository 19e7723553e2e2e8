// Score-sheet forms generated from a game's `<Game>Tally` schema in the OpenAPI components,
// so the form and the API share one source. Each field returns its value, or undefined to omit it.
//
// Lists of numbers or cards are typed in one box, separated by spaces or commas ("3 5 8",
// "QH KS"); a list of lists takes its rows separated by "|" ("1 2 | 5 6"); anything may also be
// typed as JSON ("[[1, 2], []]").

import { h } from "./dom.js";

function resolve(schemas, schema) {
  while (schema && schema.$ref) schema = schemas[schema.$ref.split("/").pop()];
  if (schema && Array.isArray(schema.type)) {  // OpenAPI 3.1: {"type": ["integer", "null"]}
    const types = schema.type.filter((x) => x !== "null");
    return { ...schema, type: types[0], nullable: schema.type.includes("null") };
  }
  return schema || {};
}

function scalar(item, text) {
  if (item.type === "integer" || item.type === "number") {
    const n = Number(text);
    if (!Number.isFinite(n)) throw new Error(`not a number: ${text}`);
    return n;
  }
  if (item.type === "boolean") return text === "true";
  return text;
}

function parseList(schemas, schema, text) {
  const item = resolve(schemas, schema.items);
  if (item.type === "array") {
    return text.split("|").map((row) => parseList(schemas, item, row));
  }
  return text.split(/[\s,]+/).filter(Boolean).map((x) => scalar(item, x));
}

function hint(schemas, schema, t) {
  const item = resolve(schemas, schema.items);
  if (item.type === "array") return `${t("hint-rows")} ${item.items?.type === "string" ? "QH KS | 10D" : "1 2 | 3"}`;
  if (item.enum) return item.enum.join(" ");
  return `${t("hint-list")} ${item.type === "string" ? "QH KS 10D" : "1 2 3"}`;
}

/** A field's words: the game's term for it (catalogue `terms`), else the page's word, else the name with spaces. */
function nameOf(name, t, words) {
  if (!name) return name;
  const m = /^(.*) (\d+)$/.exec(name);
  if (m) return `${nameOf(m[1], t, words)} ${Number(m[2]) + 1}`;
  const w = words ? words(name) : null;
  if (w && w !== name) return w;
  const p = t(name);
  return p !== name ? p : name.replace(/[_-]/g, " ");
}

function field(schemas, raw, path, name, required, t, words) {
  const schema = resolve(schemas, raw);
  const id = `tally-${path.replace(/[^\w-]/g, "_")}`;
  const label = (input, extra) => h("label", { class: ["tf", required && "req"], for: id }, h("span", {}, nameOf(name, t, words)), input, extra || null);

  if (Array.isArray(schema.oneOf) && schema.oneOf.length) {  // one of several sheets (Kierki: tricks or lottery)
    const alts = schema.oneOf.map((alt) => ({ alt, title: alt.$ref ? alt.$ref.split("/").pop() : resolve(schemas, alt).title }));
    const box = h("div", { class: "tf-variant" });
    let current = null;
    const show = (i) => {
      current = field(schemas, alts[i].alt, path, name, required, t, words);
      box.replaceChildren(current.el);
    };
    const pick = h("select", { id, "data-path": path ? `${path}#variant` : "#variant", "data-testid": "tally-variant",
      on: { change: (e) => show(Number(e.target.value)) } },
    alts.map((a, i) => h("option", { value: String(i) }, nameOf(words ? words(a.title) : a.title, t, words))));
    show(0);
    return { el: h("div", {}, label(pick), box), value: () => current.value() };
  }

  if (schema.type === "object") {
    const props = Object.entries(schema.properties || {});
    const req = new Set(schema.required || []);
    const parts = props.map(([k, v]) => ({ k, f: field(schemas, v, path ? `${path}.${k}` : k, k, req.has(k), t, words) }));
    const el = h("fieldset", { class: "tf-object", "data-path": path }, name ? h("legend", {}, nameOf(name, t, words)) : null, parts.map((p) => p.f.el));
    return {
      el,
      value() {
        const out = {};
        for (const { k, f } of parts) {
          const v = f.value();
          if (v !== undefined) out[k] = v;
        }
        return Object.keys(out).length || required || !name ? out : undefined;
      },
    };
  }

  if (schema.type === "array" && ["object"].includes(resolve(schemas, schema.items).type)) {
    const items = [];
    const list = h("div", { class: "tf-items" });
    const box = h("fieldset", { class: "tf-array", "data-path": path }, h("legend", {}, nameOf(name, t, words)));
    const add = () => {
      const i = items.length;
      const f = field(schemas, schema.items, `${path}.${i}`, `${name} ${i}`, true, t, words);
      items.push(f);
      list.append(f.el);
    };
    const remove = () => { if (items.length) { items.pop(); list.lastChild.remove(); } };
    for (let i = 0; i < (schema.minItems || 0); i++) add();
    box.append(list, h("div", { class: "row" },
      h("button", { type: "button", class: "small-btn", "data-testid": "tally-add", "data-path": path, on: { click: add } }, `+ ${t("add")}`),
      h("button", { type: "button", class: "small-btn", on: { click: remove } }, `− ${t("remove")}`)));
    return { el: box, value: () => (items.length || required ? items.map((f) => f.value()) : undefined) };
  }

  if (schema.type === "array") {
    const input = h("input", { id, type: "text", "data-path": path, placeholder: hint(schemas, schema, t), size: 28 });
    return {
      el: label(input, h("small", {}, `${schema.minItems ?? 0}–${schema.maxItems ?? "∞"}`)),
      value() {
        const text = input.value.trim();
        if (!text) return required ? [] : undefined;
        return text.startsWith("[") ? JSON.parse(text) : parseList(schemas, schema, text);
      },
    };
  }

  if (schema.enum || schema.type === "boolean") {
    const choices = schema.enum || [true, false];
    const input = h("select", { id, "data-path": path },
      required && schema.enum ? null : h("option", { value: "" }, "—"),
      choices.map((c, i) => h("option", { value: String(i) }, typeof c === "boolean" ? t(c ? "yes" : "no") : typeof c === "string" && words ? words(c) : String(c))));
    return { el: label(input), value: () => (input.value === "" ? (schema.nullable ? null : undefined) : choices[Number(input.value)]) };
  }

  if (schema.type === "integer" || schema.type === "number") {
    const input = h("input", { id, type: "number", "data-path": path, min: schema.minimum, max: schema.maximum, inputmode: "numeric" });
    return {
      el: label(input),
      value() {
        if (input.value === "") return schema.nullable ? null : undefined;
        return Number(input.value);
      },
    };
  }

  const input = h("input", { id, type: "text", "data-path": path, pattern: schema.pattern ? schema.pattern.replace(/^\^|\$$/g, "") : undefined });
  return { el: label(input), value: () => (input.value === "" ? undefined : input.value) };
}

/** The form of schema `name`: { el, value() -> the tally JSON }. */
export function tallyForm(schemas, name, t, words) {
  return field(schemas, schemas[name], "", "", true, t, words);
}

/**
 * Syntax trees for AI features (docs/ai.md): web-tree-sitter 0.25 with the grammars
 * tree-sitter-wasms ships (web-tree-sitter 0.26 and later cannot load them). One API for the diff
 * explanation (structural diff) and the semantic index (chunks at syntax boundaries):
 *
 *   languageOf("src/a.ts")            → "typescript" | null (no grammar for that file)
 *   await parse(source, "typescript") → a tree-sitter Tree, or null when the grammar cannot load
 *   await outline(source, "python")   → [{kind, name, startLine, endLine, exported}]
 *
 * Lines are 1-based and inclusive. The runtime and each grammar load once per process, from
 * `<appRoot>/node_modules` (read from disk, not bundled: next.config.mjs lists web-tree-sitter as
 * a server-external package).
 */
import path from "node:path";
import { readFile } from "node:fs/promises";
import { Language, Parser, Query, type Node, type Tree } from "web-tree-sitter";
import { getConfig } from "@/server/config";

/** A grammar name from `languageOf` ("typescript", "python", …). */
export type SyntaxLanguage = string;

/** Sources larger than this (bytes) are not parsed: `parse` and `outline` answer null / []. */
export const MAX_PARSE_BYTES = 1024 * 1024;

/** What an outline item is. `method` = a function inside a class (or impl, trait, module). */
export type OutlineKind = "function" | "class" | "method";

export interface OutlineItem {
  kind: OutlineKind;
  /** The declared name; methods are `Class.method`; anonymous items are `(anonymous)`. */
  name: string;
  /** 1-based first line of the declaration (decorators included, leading comments not). */
  startLine: number;
  /** 1-based last line, inclusive. */
  endLine: number;
  /** Visible outside the file: `export` (JS/TS), capitalised (Go), not `_`-prefixed (Python, Ruby…). */
  exported: boolean;
}

/** File extension → grammar name (the `tree-sitter-<name>.wasm` of tree-sitter-wasms). */
const EXTENSIONS: Record<string, string> = {
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  tsx: "tsx",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsx: "javascript",
  py: "python",
  go: "go",
  rs: "rust",
  java: "java",
  kt: "kotlin",
  kts: "kotlin",
  rb: "ruby",
  php: "php",
  cs: "c_sharp",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  hh: "cpp",
  swift: "swift",
  scala: "scala",
  lua: "lua",
  dart: "dart",
  ex: "elixir",
  exs: "elixir",
  zig: "zig",
  sol: "solidity",
  ml: "ocaml",
  sh: "bash",
  bash: "bash",
};

/** The grammar for `filePath` by extension, or null when tree-sitter-wasms has none. */
export function languageOf(filePath: string): string | null {
  const base = filePath.slice(filePath.lastIndexOf("/") + 1).toLowerCase();
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return null;
  return EXTENSIONS[base.slice(dot + 1)] ?? null;
}

const state = globalThis as unknown as { __svcTreeSitter?: { init: Promise<void>; languages: Map<string, Promise<Language | null>> } };

function runtime() {
  if (!state.__svcTreeSitter) {
    const root = getConfig().appRoot;
    const init = Parser.init({
      locateFile: () => path.join(/* turbopackIgnore: true */ root, "node_modules/web-tree-sitter/tree-sitter.wasm"),
    } as never);
    state.__svcTreeSitter = { init, languages: new Map() };
    init.catch(() => (state.__svcTreeSitter = undefined));
  }
  return state.__svcTreeSitter;
}

async function loadLanguage(language: string): Promise<Language | null> {
  const rt = runtime();
  let lang = rt.languages.get(language);
  if (!lang) {
    lang = (async () => {
      await rt.init;
      if (!/^[a-z_]+$/.test(language)) return null;
      const file = path.join(
        /* turbopackIgnore: true */ getConfig().appRoot,
        "node_modules/tree-sitter-wasms/out",
        `tree-sitter-${language}.wasm`,
      );
      return Language.load(await readFile(file)).catch(() => null);
    })().catch(() => null);
    rt.languages.set(language, lang);
  }
  return lang;
}

/**
 * The syntax tree of `source` in `language` (a name from `languageOf`), or null when the grammar
 * is unknown or fails to load. The caller owns the tree (`tree.delete()` frees its memory).
 */
export async function parse(source: string, language: string): Promise<Tree | null> {
  if (source.length > MAX_PARSE_BYTES || Buffer.byteLength(source) > MAX_PARSE_BYTES) return null;
  const lang = await loadLanguage(language);
  if (!lang) return null;
  const parser = new Parser();
  try {
    parser.setLanguage(lang);
    return parser.parse(source);
  } finally {
    parser.delete();
  }
}

/** Node type → kind, for every grammar (types are distinct enough across grammars). */
const FUNCTION_TYPES = new Set([
  "function_declaration",
  "generator_function_declaration",
  "function_definition",
  "function_item",
  "method_declaration",
  "method_definition",
  "constructor_declaration",
  "method",
  "singleton_method",
  "function_signature",
  "abstract_method_signature",
]);
const CLASS_TYPES = new Set([
  "class_declaration",
  "abstract_class_declaration",
  "class_definition",
  "class_specifier",
  "struct_specifier",
  "interface_declaration",
  "enum_declaration",
  "struct_item",
  "enum_item",
  "trait_item",
  "impl_item",
  "class",
  "object_declaration",
  "trait_declaration",
  "record_declaration",
  "type_declaration",
]);
/** Node types that may declare an item (the cursor looks closer only at these). */
const CANDIDATE_TYPES = new Set([
  ...FUNCTION_TYPES,
  ...CLASS_TYPES,
  "module",
  "variable_declarator",
  "assignment_expression",
  "public_field_definition",
  "field_definition",
  "pair",
]);

const queries = new Map<string, Promise<Query | null>>();

/** `[(type) …] @item` over the CANDIDATE_TYPES this grammar has; null when none or the grammar fails. */
function candidateQuery(language: string): Promise<Query | null> {
  let q = queries.get(language);
  if (!q) {
    q = loadLanguage(language)
      .then((lang) => {
        if (!lang) return null;
        const types = [...CANDIDATE_TYPES].filter((t) => lang.idForNodeType(t, true) !== null);
        return types.length ? new Query(lang, `[${types.map((t) => `(${t})`).join(" ")}] @item`) : null;
      })
      .catch(() => null);
    queries.set(language, q);
  }
  return q;
}
/** Values that make `const x = …` / `a.b = …` a function. */
const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function", "generator_function", "lambda"]);

function nameOf(node: Node): string | null {
  const n = node.childForFieldName("name");
  if (n) return n.text;
  if (node.type === "impl_item") return node.childForFieldName("type")?.text ?? null;
  if (node.type === "type_declaration")
    return node.namedChildren.find((c) => c?.type === "type_spec")?.childForFieldName("name")?.text ?? null;
  // C/C++: function_definition → declarator (function_declarator → declarator)
  let d = node.childForFieldName("declarator");
  while (d && d.childForFieldName("declarator")) d = d.childForFieldName("declarator");
  return d ? d.text : null;
}

/** The value a variable declarator or assignment binds, unwrapping calls such as `$constructor("X", (inst) => …)`. */
function boundFunction(value: Node | null): boolean {
  if (!value) return false;
  if (FUNCTION_VALUES.has(value.type)) return true;
  if (value.type === "call_expression" || value.type === "parenthesized_expression") {
    const args = value.childForFieldName("arguments") ?? value;
    return args.namedChildren.some((c) => !!c && FUNCTION_VALUES.has(c.type));
  }
  return false;
}

function exportedName(name: string, language: string, node: Node): boolean {
  if (language === "go") return /^[A-Z]/.test(name);
  if (["typescript", "tsx", "javascript"].includes(language)) {
    for (let p = node.parent; p; p = p.parent) if (p.type === "export_statement") return true;
    return false;
  }
  if (language === "rust") return node.namedChildren.some((c) => c?.type === "visibility_modifier");
  return !name.split(".").pop()!.startsWith("_");
}

/**
 * The functions, classes and methods of `source` in document order (a class before its methods).
 * Also counted as functions: `const f = () => …`, `const X = make("X", (…) => …)` and
 * `a.b = function …` (Express style). Empty when the grammar cannot load.
 */
export async function outline(source: string, language: string): Promise<OutlineItem[]> {
  const tree = await parse(source, language);
  if (!tree) return [];
  const items: OutlineItem[] = [];
  type Owner = { name: string; cls: boolean; depth: number };
  /** The item `node` declares, if any, given its owner: the enclosing class (its functions are
   * methods) or function (nested items are named `outer.name`; `inst.check = () => …` inside a
   * constructor function is the method `Outer.check`). */
  const itemOf = (node: Node, owner: Owner | undefined): { item: OutlineItem; base: string; kind: OutlineKind } | null => {
    let kind: OutlineKind | null = null;
    let name: string | null = null;
    let span: Node = node;
    if (FUNCTION_TYPES.has(node.type)) {
      kind = owner?.cls || (owner && node.type === "method_definition") ? "method" : "function";
      name = nameOf(node);
    } else if (
      (CLASS_TYPES.has(node.type) || (node.type === "module" && language === "ruby")) &&
      node.endPosition.row > node.startPosition.row
    ) {
      kind = "class";
      name = nameOf(node);
    } else if (node.type === "variable_declarator" && boundFunction(node.childForFieldName("value"))) {
      kind = owner?.cls ? "method" : "function";
      name = node.childForFieldName("name")?.text ?? null;
      // the whole `const x = …;` statement
      if (node.parent && /declaration$/.test(node.parent.type)) span = node.parent;
    } else if (node.type === "assignment_expression" && boundFunction(node.childForFieldName("right"))) {
      const left = node.childForFieldName("left");
      kind = owner && left?.type === "member_expression" ? "method" : "function";
      name = (owner && left?.type === "member_expression" ? left.childForFieldName("property")?.text : left?.text) ?? null;
      if (node.parent?.type === "expression_statement") span = node.parent;
    } else if (
      (node.type === "public_field_definition" || node.type === "field_definition") &&
      boundFunction(node.childForFieldName("value"))
    ) {
      kind = owner?.cls ? "method" : "function";
      name = (node.childForFieldName("name") ?? node.childForFieldName("property"))?.text ?? null;
    } else if (node.type === "pair" && !owner && boundFunction(node.childForFieldName("value"))) {
      kind = "function";
      name = node.childForFieldName("key")?.text ?? null;
    }
    if (!kind) return null;
    const base = (name ?? "(anonymous)").replace(/\s+/g, " ").slice(0, 200);
    const full = owner ? `${owner.name}.${base}` : base;
    // decorators (Python's decorated_definition, TS decorators) belong to the item
    const outer = span.parent?.type === "decorated_definition" ? span.parent : span;
    return {
      item: {
        kind,
        name: full,
        startLine: outer.startPosition.row + 1,
        endLine: span.endPosition.row + 1,
        exported: exportedName(full, language, node),
      },
      base,
      kind,
    };
  };
  // one tree-sitter query for every node type that may declare an item (matched inside the
  // WASM module: no JavaScript object for the nodes that declare nothing), in document order
  const query = await candidateQuery(language);
  const owners: Array<Owner & { end: number }> = [];
  try {
    if (query) {
      for (const { node } of query.captures(tree.rootNode)) {
        while (owners.length && owners.at(-1)!.end <= node.startIndex) owners.pop();
        const owner = owners.at(-1);
        const found = itemOf(node, owner);
        if (!found) continue;
        items.push(found.item);
        if (found.kind === "class") owners.push({ name: found.base, cls: true, depth: 0, end: node.endIndex });
        else if (!owner) owners.push({ name: found.base, cls: false, depth: 0, end: node.endIndex });
      }
    }
  } finally {
    tree.delete();
  }
  return items.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
}

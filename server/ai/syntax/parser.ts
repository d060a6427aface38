/**
 * Syntax trees for the AI helpers (issue #10; docs/ai.md "Structural diff"): web-tree-sitter
 * 0.25 with the grammars tree-sitter-wasms ships (STACK-NOTES: 0.26+ cannot load them).
 *
 *   languageOf(path)            → the grammar for a file name, or null
 *   parse(source, language)     → a Tree (the caller calls tree.delete()), or null
 *   outline(source, language)   → functions, classes and methods with lines and "exported"
 *
 * The WASM runtime is loaded once, each grammar lazily on first use and then kept. Input is
 * bounded (MAX_PARSE_BYTES): larger sources get no tree (null / an empty outline), and callers
 * fall back to line-based handling. web-tree-sitter is a server-external package
 * (next.config.mjs) so its own tree-sitter.wasm is found beside it; grammar files are read
 * from node_modules/tree-sitter-wasms/out (resolved from the package, or from the working
 * directory in the built server).
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Language, Parser, type Node, type Tree } from "web-tree-sitter";

/** Largest source parsed (bytes of UTF-8, 1 MiB); beyond it there is no tree. */
export const MAX_PARSE_BYTES = 1024 * 1024;

/** Grammar names as tree-sitter-wasms calls them (`tree-sitter-<name>.wasm`). */
export type SyntaxLanguage =
  | "typescript" | "tsx" | "javascript" | "python" | "go" | "rust" | "java" | "ruby"
  | "c" | "cpp" | "c_sharp" | "php" | "kotlin" | "swift" | "scala" | "lua" | "bash";

const BY_EXTENSION: Record<string, SyntaxLanguage> = {
  ts: "typescript", mts: "typescript", cts: "typescript", tsx: "tsx",
  js: "javascript", mjs: "javascript", cjs: "javascript", jsx: "javascript",
  py: "python", pyi: "python", go: "go", rs: "rust", java: "java", rb: "ruby",
  c: "c", h: "c", cc: "cpp", cpp: "cpp", cxx: "cpp", hpp: "cpp", hh: "cpp", cs: "c_sharp",
  php: "php", kt: "kotlin", kts: "kotlin", swift: "swift", scala: "scala", lua: "lua", sh: "bash", bash: "bash",
};

/** The grammar for `filePath` from its extension (`.d.ts` is TypeScript), or null when none fits. */
export function languageOf(filePath: string): SyntaxLanguage | null {
  const base = filePath.slice(filePath.lastIndexOf("/") + 1).toLowerCase();
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return null;
  return BY_EXTENSION[base.slice(dot + 1)] ?? null;
}

let runtime: Promise<void> | null = null;
const languages = new Map<SyntaxLanguage, Promise<Language>>();
const parsers = new Map<SyntaxLanguage, Parser>();

/** The folder holding the grammar .wasm files. */
function grammarDir(): string {
  const candidates: string[] = [];
  try {
    const req = createRequire(path.join(process.cwd(), "package.json"));
    candidates.push(path.join(path.dirname(req.resolve("tree-sitter-wasms/package.json")), "out"));
  } catch {
    // not resolvable from here: fall back to the working directory
  }
  candidates.push(path.join(process.cwd(), "node_modules", "tree-sitter-wasms", "out"));
  return candidates.find((c) => existsSync(c)) ?? candidates[candidates.length - 1]!;
}

async function languageFor(language: SyntaxLanguage): Promise<Language> {
  let loaded = languages.get(language);
  if (!loaded) {
    runtime ??= Parser.init();
    loaded = runtime.then(() => Language.load(path.join(grammarDir(), `tree-sitter-${language}.wasm`)));
    // a failed load is not cached: the next call tries again
    loaded.catch(() => languages.delete(language));
    languages.set(language, loaded);
  }
  return loaded;
}

/**
 * Parses `source` with `language`'s grammar. Returns null when the source is larger than
 * MAX_PARSE_BYTES or the grammar cannot be loaded. The caller owns the tree: call
 * `tree.delete()` when done (it holds WASM memory). Trees with syntax errors are still returned
 * (`tree.rootNode.hasError`).
 */
export async function parse(source: string, language: SyntaxLanguage): Promise<Tree | null> {
  if (Buffer.byteLength(source, "utf8") > MAX_PARSE_BYTES) return null;
  let lang: Language;
  try {
    lang = await languageFor(language);
  } catch {
    return null;
  }
  let parser = parsers.get(language);
  if (!parser) {
    parser = new Parser();
    parser.setLanguage(lang);
    parsers.set(language, parser);
  }
  return parser.parse(source);
}

/** One declaration of an outline. Lines are 1-based and inclusive. */
export interface OutlineItem {
  kind: "function" | "class" | "method";
  /** The declared name; for methods `Class.method` is NOT used: the plain name, `container` holds the class. */
  name: string;
  /** The enclosing class's name for methods (and nested declarations), else undefined. */
  container?: string;
  startLine: number;
  endLine: number;
  /** Visible outside the file: `export` (JS/TS), `pub` (Rust), capitalised (Go), `public` (Java, C#, Kotlin: default public), no leading `_` at top level (Python, Ruby, PHP). */
  exported: boolean;
  /** The declaration's source text (to compare versions of it). */
  text: string;
}

const CLASS_TYPES = new Set([
  "class_declaration", "abstract_class_declaration", "class_definition", "class_specifier", "struct_specifier",
  "struct_item", "enum_item", "trait_item", "interface_declaration", "class", "module", "object_declaration",
  "protocol_declaration", "enum_declaration", "struct_declaration", "trait_definition", "object_definition", "type_spec",
]);
const FUNCTION_TYPES = new Set([
  "function_declaration", "generator_function_declaration", "function_definition", "function_item", "method_definition",
  "method_declaration", "method", "singleton_method", "constructor_declaration", "function_signature_item", "local_function_statement",
]);
const METHOD_ONLY = new Set(["method_definition", "method_declaration", "method", "singleton_method", "constructor_declaration"]);
const VALUE_FUNCTIONS = new Set(["arrow_function", "function_expression", "function", "generator_function"]);

/** The name of a declaration node: its `name` field, or the identifier inside a C declarator. */
function nameOf(node: Node): string | null {
  const named = node.childForFieldName("name");
  if (named) return named.text;
  let d = node.childForFieldName("declarator");
  for (let i = 0; d && i < 8; i++) {
    if (/identifier$|^field_identifier$|^operator_name$|^destructor_name$/.test(d.type)) return d.text;
    d = d.childForFieldName("declarator") ?? d.childForFieldName("name") ?? d.namedChildren.find((c) => c && /identifier/.test(c.type)) ?? null;
  }
  return null;
}

function isExported(node: Node, name: string, language: SyntaxLanguage, topLevel: boolean): boolean {
  switch (language) {
    case "typescript": case "tsx": case "javascript":
      return node.parent?.type === "export_statement";
    case "go": return /^[A-Z]/.test(name);
    case "rust": return node.namedChildren.some((c) => c?.type === "visibility_modifier");
    case "java": case "c_sharp": return /\bpublic\b/.test(node.namedChildren.find((c) => c?.type === "modifiers")?.text ?? "");
    case "kotlin": case "scala": case "swift": return !/\b(private|internal|fileprivate)\b/.test(node.text.slice(0, node.text.indexOf(name)));
    case "c": case "cpp": return !/^\s*static\b/.test(node.text);
    default: return topLevel && !name.startsWith("_");
  }
}

/**
 * The functions, classes and methods declared in `source`, in source order (nested ones too:
 * a function inside a class is a method). JS/TS `const f = () => …` counts as a function.
 * Empty when the source is too large or the grammar is unavailable. Names missing from the tree
 * (anonymous declarations) are left out.
 */
export async function outline(source: string, language: SyntaxLanguage): Promise<OutlineItem[]> {
  const tree = await parse(source, language);
  if (!tree) return [];
  const items: OutlineItem[] = [];
  const visit = (node: Node, container: string | undefined, topLevel: boolean, depth: number) => {
    if (depth > 200) return;
    let nextContainer = container;
    let nextTop = topLevel;
    const type = node.type;
    const item = (kind: OutlineItem["kind"], name: string, at: Node = node) =>
      items.push({ kind, name, ...(container ? { container } : {}), startLine: at.startPosition.row + 1, endLine: at.endPosition.row + 1, exported: isExported(at, name, language, topLevel), text: at.text });
    if (CLASS_TYPES.has(type) && !(type === "type_spec" && language !== "go")) {
      const name = nameOf(node);
      if (name && (type !== "struct_specifier" || node.childForFieldName("body"))) {
        item("class", name);
        nextContainer = name; // members of a top-level class count as top level (Python, Ruby: no leading "_")
      }
    } else if (type === "impl_item") {
      nextContainer = node.childForFieldName("type")?.text ?? container;
    } else if (FUNCTION_TYPES.has(type)) {
      const name = nameOf(node);
      if (name) item(METHOD_ONLY.has(type) || container ? "method" : "function", name);
      nextTop = false;
    } else if (type === "variable_declarator" && (language === "typescript" || language === "tsx" || language === "javascript")) {
      const value = node.childForFieldName("value");
      const name = node.childForFieldName("name");
      if (value && name && VALUE_FUNCTIONS.has(value.type) && name.type === "identifier") {
        const decl = node.parent?.type === "lexical_declaration" || node.parent?.type === "variable_declaration" ? node.parent : node;
        item(container ? "method" : "function", name.text, decl);
      }
    }
    for (const child of node.namedChildren) if (child) visit(child, nextContainer, nextTop && !FUNCTION_TYPES.has(type), depth + 1);
  };
  try {
    visit(tree.rootNode, undefined, true, 0);
  } finally {
    tree.delete();
  }
  return items;
}

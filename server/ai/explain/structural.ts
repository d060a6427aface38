/**
 * The structural diff of one file (ai.explainFileDiff, spec "AI router"; docs/ai.md):
 * the outlines (server/ai/syntax/parser.ts) of the old and new version compared by identity
 * `kind + container + name`. A declaration present only in the new version is added, only in
 * the old one removed; present in both, it is changed when its text differs once whitespace is
 * collapsed (so re-indentation alone is not a change). Exported-ness is compared too: an export
 * that disappears (removed, or no longer exported) is named separately because callers break.
 */
import { languageOf, outline, type OutlineItem, type SyntaxLanguage } from "@/server/ai/syntax/parser";

export interface DeclRef {
  kind: OutlineItem["kind"];
  /** `name`, or `Container.name` for members. */
  name: string;
  exported: boolean;
  /** Line in the version it belongs to (new for added/changed, old for removed), 1-based. */
  line: number;
}

export interface StructuralDiff {
  language: SyntaxLanguage;
  added: DeclRef[];
  removed: DeclRef[];
  changed: DeclRef[];
  /** Exported declarations of the old version that are gone or no longer exported in the new. */
  removedExports: DeclRef[];
  /** Declarations in the new version that became exported. */
  newExports: DeclRef[];
  /** Declarations counted in the old and new version. */
  oldCount: number;
  newCount: number;
}

/** An outline item with its source text (to compare versions of it). Methods are named `Class.method` (parser.ts). */
type Decl = OutlineItem & { text: string };
const keyOf = (d: Decl) => `${d.kind}\u0000${d.name}`;
const nested = (d: Decl) => d.kind === "method";
const ref = (d: Decl, line = d.startLine): DeclRef => ({ kind: d.kind, name: d.name, exported: d.exported, line });
const withText = (items: OutlineItem[], source: string): Decl[] => {
  const lines = source.split("\n");
  // the export keyword is not part of the declaration's body: a change of export alone is not "changed"
  return items.map((d) => ({
    ...d,
    text: lines
      .slice(d.startLine - 1, d.endLine)
      .join("\n")
      .replace(/^\s*export\s+(default\s+)?/, ""),
  }));
};
const squash = (t: string) => t.replace(/\s+/g, " ").trim();

/** Index of an outline by identity; a repeated identity (overloads) keeps every text joined. */
function index(items: Decl[]): Map<string, Decl> {
  const map = new Map<string, Decl>();
  for (const d of items) {
    const k = keyOf(d);
    const seen = map.get(k);
    map.set(k, seen ? { ...seen, text: `${seen.text}\n${d.text}`, exported: seen.exported || d.exported } : d);
  }
  return map;
}

/**
 * Compares the declarations of `oldContent` and `newContent` of `path`. Returns null when the
 * file has no grammar (languageOf) or neither version parses into any declaration — callers
 * then describe the change line by line.
 */
export async function structuralDiff(path: string, oldContent: string, newContent: string): Promise<StructuralDiff | null> {
  const language = languageOf(path);
  if (!language) return null;
  const [before, after] = await Promise.all([
    oldContent ? outline(oldContent, language).then((o) => withText(o, oldContent)) : [],
    newContent ? outline(newContent, language).then((o) => withText(o, newContent)) : [],
  ]);
  if (!before.length && !after.length) return null;
  const oldIdx = index(before);
  const newIdx = index(after);
  const diff: StructuralDiff = {
    language,
    added: [],
    removed: [],
    changed: [],
    removedExports: [],
    newExports: [],
    oldCount: before.length,
    newCount: after.length,
  };
  for (const [k, d] of newIdx) {
    const prev = oldIdx.get(k);
    if (!prev) diff.added.push(ref(d));
    else if (squash(prev.text) !== squash(d.text)) diff.changed.push(ref(d));
    if (d.exported && !prev?.exported && !nested(d)) diff.newExports.push(ref(d));
  }
  for (const [k, d] of oldIdx) {
    const next = newIdx.get(k);
    if (!next) diff.removed.push(ref(d));
    if (d.exported && !nested(d) && !next?.exported) diff.removedExports.push(ref(d));
  }
  return diff;
}

/** "function `a`, class `B`" for a list of declarations (at most `max` named, then "and N more"). */
export function describeDecls(list: DeclRef[], max = 6): string {
  const names = list.slice(0, max).map((d) => `${d.kind} \`${d.name}\``);
  if (list.length > max) names.push(`and ${list.length - max} more`);
  return names.join(", ");
}

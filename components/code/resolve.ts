/**
 * Splits the catch-all segments after /tree/ or /blob/ into a ref and a path: the longest
 * leading run of segments that joins to an existing branch name wins (so both "feature" and
 * "feature/login" can exist). When no branch matches, the first segment is the ref (a tag or a
 * commit sha) and the rest is the path; the API answers NOT_FOUND if it does not resolve.
 */
export function splitRefAndPath(branchNames: readonly string[], segments: readonly string[]): { ref: string; path: string } {
  const names = new Set(branchNames);
  for (let k = segments.length; k >= 1; k--) {
    const candidate = segments.slice(0, k).join("/");
    if (names.has(candidate)) return { ref: candidate, path: segments.slice(k).join("/") };
  }
  return { ref: segments[0] ?? "", path: segments.slice(1).join("/") };
}

/**
 * Decodes a route segment. Next 16 hands catch-all segments to pages still percent-encoded
 * (`dir%20with%20space`); a malformed escape is kept as written instead of failing.
 */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

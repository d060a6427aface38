/**
 * The part of picomatch 4 (already in node_modules through the build tools; it ships no types)
 * that search uses: a matcher for one or several globs.
 */
declare module "picomatch" {
  interface PicomatchOptions {
    dot?: boolean;
    nocase?: boolean;
  }
  function picomatch(glob: string | string[], options?: PicomatchOptions): (path: string) => boolean;
  export default picomatch;
}

// adapter-pg 6.19.3 has no case for PostgreSQL catalog types (name, char, int2vector, regproc,
// oidvector, pg_node_tree, regclass/regtype…), so the schema engine's introspection fails with
// "Column type 'name' could not be deserialized". Reporting them as text (25; arrays as 1009)
// fixes the CLI. Only the CLI config loads this; runtime queries need no wrapper.
import pg from "pg";

const CATALOG_TO_TEXT = new Set([18, 19, 22, 24, 30, 194, 2205, 2206]);
const CATALOG_ARRAY_TO_TEXT_ARRAY = new Set([1003, 1033]);
let installed = false;

export function installCatalogTypeMapping(): void {
  if (installed) return;
  installed = true;
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function patchedQuery(this: unknown, ...args: unknown[]) {
    const result = original.apply(this, args);
    if (result && typeof (result as Promise<unknown>).then === "function") {
      return (result as Promise<{ fields?: { dataTypeID: number }[] }>).then((res) => {
        for (const field of res?.fields ?? []) {
          if (CATALOG_TO_TEXT.has(field.dataTypeID)) field.dataTypeID = 25;
          else if (CATALOG_ARRAY_TO_TEXT_ARRAY.has(field.dataTypeID)) field.dataTypeID = 1009;
        }
        return res;
      });
    }
    return result;
  } as typeof pg.Client.prototype.query;
}

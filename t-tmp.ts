import { readFileSync } from "node:fs";
import { chunkFile } from "@/server/services/search/chunk";
const f = process.argv[2];
const t = Date.now();
const cs = await chunkFile(f, readFileSync(f, "utf8"));
console.log(Date.now() - t, "ms", cs.length);
for (const c of cs.slice(0, Number(process.argv[3] ?? 20))) console.log(c.startLine, c.endLine, c.chunkType, c.name, "|", c.docText.slice(0, 80));

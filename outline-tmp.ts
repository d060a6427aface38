import { readFileSync } from "node:fs";
import { outline, languageOf } from "@/server/ai/syntax/parser";
const f = process.argv[2];
const src = readFileSync(f, "utf8");
const t = Date.now();
const o = await outline(src, languageOf(f)!);
console.log(Date.now() - t, "ms", o.length);
for (const i of o.slice(0, Number(process.argv[3] ?? 30))) console.log(i);

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The data folder (SQLite file, repositories) is user data, never part of the app's file traces.
  outputFileTracingExcludes: { "/*": ["data/**"] },
  // Native and engine packages stay outside the bundle; prom-client too, so the request bundles and
  // instrumentation.ts share one copy in the process (server/metrics/registry.ts); piscina starts
  // its workers from files next to its own code, which a bundle would not have; ssh2 loads an
  // optional native addon (git over SSH, server/ssh) that a bundle cannot place.
  serverExternalPackages: [
    "@node-rs/argon2",
    "better-sqlite3",
    "pg",
    "pg-boss",
    "piscina",
    "prom-client",
    "shiki",
    "ssh2",
    "usearch",
    "web-tree-sitter",
  ],
  // tree-sitter grammars (server/ai/syntax/parser.ts) are read at run time from node_modules.
  outputFileTracingIncludes: { "/*": ["node_modules/tree-sitter-wasms/out/*.wasm", "node_modules/web-tree-sitter/tree-sitter.wasm"] },
  // Security headers on every response; pages also get a nonce CSP from proxy.ts, API and git
  // responses a CSP that allows nothing. Mirrors server/http/security-headers.ts (a unit test
  // checks they agree).
  async headers() {
    const everywhere = [
      { key: "X-Content-Type-Options", value: "nosniff" },
      { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
      { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()" },
      { key: "X-Frame-Options", value: "DENY" },
    ];
    const apiCsp = [{ key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" }];
    return [
      { source: "/:path*", headers: everywhere },
      { source: "/api/:path*", headers: apiCsp },
      { source: "/trpc/:path*", headers: apiCsp },
      { source: "/:owner/:repo([^/]+)\\.git/:path*", headers: apiCsp },
    ];
  },
  async rewrites() {
    return {
      beforeFiles: [
        // git smart HTTP: /<owner>/<repo>.git/<info/refs|git-upload-pack|git-receive-pack>
        { source: "/:owner/:repo([^/]+)\\.git/:path*", destination: "/api/git/:owner/:repo/:path*" },
        // the spec's {base_url}/trpc/<router>.<procedure> with base_url = the server root
        { source: "/trpc/:path*", destination: "/api/trpc/:path*" },
      ],
    };
  },
};

export default nextConfig;

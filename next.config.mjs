/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native and engine packages stay outside the bundle.
  serverExternalPackages: ["@node-rs/argon2", "better-sqlite3", "pg", "shiki"],
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

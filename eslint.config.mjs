// ESLint flat config: typescript-eslint (syntax-only presets, no type information, so a run stays
// fast), React hooks and the React Compiler rules, jsx-a11y for the UI, import cycles, and the
// layer rules of docs/architecture.md (which folder may import which).
import path from "node:path";
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import jsxA11y from "eslint-plugin-jsx-a11y";
import globals from "globals";

const root = import.meta.dirname;

// Resolves `@/x` through tsconfig.json's `paths` (`@/*` → `./*`) and TypeScript's extensions, so
// import-x/no-cycle and import-x/no-restricted-paths see the same files the compiler does.
const resolver = createNodeResolver({
  tsconfig: { configFile: path.join(root, "tsconfig.json") },
  extensions: [".ts", ".tsx", ".d.ts", ".mts", ".d.mts", ".mjs", ".js", ".json"],
  conditionNames: ["types", "import", "node", "require", "default"],
});

/** A zone of import-x/no-restricted-paths: files under `target` may not import files under `from`. */
const zone = (target, from, message) => ({ target: `./${target}`, from: from.map((f) => `./${f}`), message });

export default tseslint.config(
  {
    ignores: ["generated/", ".next/", "node_modules/", "data/", "test-results/", "playwright-report/", "next-env.d.ts"],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // A leading underscore marks a binding kept on purpose (a positional argument, a property
      // dropped from a rest copy); the rest sibling is how an object loses a property here.
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    files: ["components/**/*.{ts,tsx}", "app/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Hooks and the React Compiler rules only where React code lives: compiling every server
    // module would double the run's time for nothing.
    files: ["components/**/*.{ts,tsx}", "app/**/*.{ts,tsx}"],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ["components/**/*.tsx", "app/**/*.tsx"],
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // Every autoFocus moves focus into a field the user just opened (dialog, popover, inline
      // editor) or onto the one field of a single-form page, as the WAI-ARIA dialog pattern asks.
      "jsx-a11y/no-autofocus": "off",
      // A scrollable region takes focus so keyboard users can scroll it (WCAG 2.1.1): a labelled role="region".
      "jsx-a11y/no-noninteractive-tabindex": ["error", { tags: [], roles: ["tabpanel", "region"], allowExpressionValues: true }],
      // Safari drops the list semantics of a list styled `list-style: none` (Tailwind's base): role="list" restores them.
      "jsx-a11y/no-redundant-roles": ["error", { nav: ["navigation"], ul: ["list"], ol: ["list"] }],
      // A radio or checkbox card's text sits in nested spans (title and description) inside its label.
      "jsx-a11y/label-has-associated-control": ["error", { depth: 3 }],
    },
  },
  {
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [resolver],
      "import-x/extensions": [".ts", ".tsx", ".mts", ".mjs", ".js"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx", ".mts"] },
      // Prisma's generated client is large and imports nothing of ours: no cycle can pass through it.
      "import-x/ignore": ["/node_modules/", "/generated/"],
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-restricted-paths": [
        "error",
        {
          basePath: root,
          zones: [
            zone(
              "server/git",
              ["server/services", "server/api", "server/auth", "server/http", "components", "app"],
              "server/git runs git and parses its output; it knows nothing of services, the API, auth, HTTP or the UI.",
            ),
            zone("server", ["components", "app"], "Server code never imports the UI."),
            zone("lib", ["server", "components", "app"], "lib/ is isomorphic code shared by the server and the UI; it imports neither."),
          ],
        },
      ],
    },
  },
  {
    // The UI reaches the server through tRPC; from server/ it imports only types, and values only
    // from the entry points of server components (the caller, the session, and highlighting on
    // the worker pool). Shared values live in lib/.
    files: ["components/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(@/|(\\.\\./)+)server/(?!(auth/session|api/root|highlight)$)",
              allowTypeImports: true,
              message: "components/ imports only types from server/ (values shared with the UI belong in lib/).",
            },
          ],
        },
      ],
    },
  },
  {
    // Specs take `test` from e2e/fixtures.ts: its goto/reload wait for hydration (a click or key
    // sent to a server-rendered page before React attached its handlers is lost: a flaky test).
    files: ["e2e/**/*.spec.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@playwright/test",
              importNames: ["test"],
              message: "Import test (and expect) from ./fixtures: its page.goto and page.reload wait for hydration.",
            },
          ],
        },
      ],
    },
  },
);

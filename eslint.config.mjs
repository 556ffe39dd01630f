// Type-aware lint: the rules that catch real bugs in async Nest code, and in the console's Vue code.
import js from '@eslint/js';
import pluginVue from 'eslint-plugin-vue';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Libraries through their front doors only (docs/design-and-performance.md, "Only public APIs of
// libraries"): a package is imported by its name, or by a subpath it documents as public; its
// dist/, cjs/, lib/ or types/ files and its underscore members are its own business and change
// without notice. Public subpaths the project uses are listed here, one by one.
// `ajv/dist/2019` is the entry point Ajv's documentation gives for JSON Schema draft 2019-09.
const PUBLIC_SUBPATHS = ['mysql2/promise', 'ajv/dist/2019'];
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A package name followed by a path: `pkg/x` or `@scope/pkg/x` (never `./x`, `../x` or `node:x`). */
const INTERNAL_PATH = `^(?!(?:${PUBLIC_SUBPATHS.map(escapeRegex).join('|')})$)(?:@[^/]+/)?[^./@][^/:]*/.+`;
const INTERNAL_PATH_MESSAGE =
  "Import the package by its name (or a public subpath listed in eslint.config.mjs): its internal files change without notice. See docs/design-and-performance.md, 'Only public APIs of libraries'.";
// esquery's regular expressions cannot hold a `/`: \x2F stands for it.
const INTERNAL_PATH_SELECTOR_REGEX = INTERNAL_PATH.replaceAll('/', '\\x2F');
const internalPathImports = { patterns: [{ regex: INTERNAL_PATH, message: INTERNAL_PATH_MESSAGE }] };
/** class-transformer's decorators come through src/common/validation/transforms.ts, which marks them for the fast validation path. */
const classTransformerDecorators = {
  name: 'class-transformer',
  importNames: ['Transform', 'Type', 'Expose', 'Exclude'],
  message: 'Use Transformed() and the decorators of src/common/validation/transforms.ts: the fast validation path (fast-validation.ts) must see every transform.',
};
const privateParts = [
  'error',
  { selector: `CallExpression[callee.name='require'] > Literal.arguments[value=/${INTERNAL_PATH_SELECTOR_REGEX}/]`, message: INTERNAL_PATH_MESSAGE },
  { selector: `ImportExpression > Literal.source[value=/${INTERNAL_PATH_SELECTOR_REGEX}/]`, message: INTERNAL_PATH_MESSAGE },
  {
    selector: 'MemberExpression[computed=false][property.name=/^_/], MemberExpression[computed=true][property.value=/^_/]',
    message:
      "An underscore member is a library's private part: it changes without notice. Use its public API, or wrap it at one seam (docs/design-and-performance.md, 'Only public APIs of libraries').",
  },
];

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/results/**', 'jest.config.js', 'eslint.config.mjs', 'console/dist/**', 'console/src/api-types.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/require-await': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/unbound-method': 'off',
      eqeqeq: 'error',
      curly: 'error',
      'no-restricted-imports': ['error', { ...internalPathImports, paths: [classTransformerDecorators] }],
      'no-restricted-syntax': privateParts,
    },
  },
  {
    // The one place that applies class-transformer's decorators for DTOs (marked), `@Type` beside
    // `@ValidateNested` (a nested rule the fast path refuses anyway), and the configuration class,
    // which the validation pipe never sees.
    files: ['src/common/validation/transforms.ts', 'src/common/validation/lists.ts', 'src/config/app-config.ts'],
    rules: { 'no-restricted-imports': ['error', internalPathImports] },
  },
  // The console (console/): Vue's recommended rules for the templates, the same type-aware rules for
  // the script blocks, checked against console/tsconfig.json (browser globals, the DOM library).
  ...pluginVue.configs['flat/recommended'].map((config) => ({ ...config, files: ['console/**/*.vue'] })),
  {
    files: ['console/**/*.vue', 'console/**/*.ts', 'console/**/*.mts'],
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: { parser: tseslint.parser, projectService: true, extraFileExtensions: ['.vue'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Long single-line attributes and elements are how these templates are written; their layout is not a bug.
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/multiline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
      'vue/html-closing-bracket-newline': 'off',
      'vue/html-indent': 'off',
    },
  },
  {
    files: ['**/*.spec.ts', 'test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['scripts/**/*.js', 'bench/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'commonjs',
      globals: { ...globals.node },
    },
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off', 'no-restricted-syntax': privateParts },
  },
);

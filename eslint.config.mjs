// ESLint: the recommended rules of ESLint and typescript-eslint, over src/, test/, bench/, scripts/ and bin/.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'completions/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        URL: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        queueMicrotask: 'readonly',
        structuredClone: 'readonly',
        performance: 'readonly',
        globalThis: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
        fetch: 'readonly',
      },
    },
    rules: {
      // Options and service objects are open by design (unknown fields are kept).
      '@typescript-eslint/no-explicit-any': 'off',
      // svc reads and escapes terminal bytes: regular expressions over control characters are the point.
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  // The CommonJS launcher and test preloads load with require().
  { files: ['bin/**/*.js', '**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
);

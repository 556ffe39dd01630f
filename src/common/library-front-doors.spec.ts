import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * The lint rules that keep libraries behind their front doors (eslint.config.mjs;
 * docs/design-and-performance.md, "Only public APIs of libraries"), run through ESLint's Node API
 * on snippets, so that a change to the config that silently stops them fails here. Type-aware
 * rules are switched off for speed: these rules read syntax only.
 */
const root = resolve(__dirname, '..', '..');

interface Snippet {
  filePath: string;
  lines: string[];
}

/** The lines of each snippet (1-based) that the two rules flag. */
function flaggedLines(snippets: Snippet[]): Array<Array<[number, string]>> {
  const program = `
    import { ESLint } from 'eslint';
    import tseslint from 'typescript-eslint';
    const eslint = new ESLint({
      cwd: process.cwd(),
      overrideConfigFile: 'eslint.config.mjs',
      overrideConfig: [tseslint.configs.disableTypeChecked, { languageOptions: { parserOptions: { projectService: false } } }],
    });
    const out = [];
    for (const snippet of JSON.parse(process.env.SNIPPETS)) {
      const [result] = await eslint.lintText(snippet.lines.join('\\n') + '\\n', { filePath: snippet.filePath });
      out.push(result.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax' || m.fatal).map((m) => [m.line, m.ruleId ?? m.message]));
    }
    process.stdout.write(JSON.stringify(out));
  `;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', program], {
    cwd: root,
    env: { ...process.env, SNIPPETS: JSON.stringify(snippets) },
    encoding: 'utf8',
  });
  return JSON.parse(output) as Array<Array<[number, string]>>;
}

describe('eslint.config.mjs: only public APIs of libraries', () => {
  it('flags internal package paths and underscore members, and leaves public entry points alone', () => {
    const typescript: Snippet = {
      filePath: 'src/cities/probe.ts',
      lines: [
        "import { a } from 'class-transformer/cjs/storage';",
        "import type { B } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';",
        "import { C } from 'typeorm/util/DateUtils';",
        "export { D } from 'some-package/lib/internal';",
        "import { createConnection } from 'mysql2/promise';",
        "import { readFile } from 'node:fs/promises';",
        "import { DataSource } from 'typeorm';",
        "import { Injectable } from '@nestjs/common';",
        "import { local } from './local';",
        "import { Transform } from 'class-transformer';",
        'const library = { _private: 1, open: 2 };',
        'export const values = [library._private, library["_private"], library.open, a, C, createConnection, readFile, DataSource, Injectable, local, Transform];',
        'export type Values = B;',
      ],
    };
    const script: Snippet = {
      filePath: 'scripts/probe.js',
      lines: [
        "const storage = require('class-transformer/cjs/storage');",
        "const promise = require('mysql2/promise');",
        "const fs = require('node:fs');",
        "const local = require('./local');",
        'console.log(storage._private, promise, fs, local.open);',
        "void import('typeorm/util/DateUtils');",
        "void import('typeorm');",
      ],
    };
    const transforms: Snippet = { filePath: 'src/common/validation/transforms.ts', lines: ["import { Transform } from 'class-transformer';", 'export const t = Transform;'] };

    expect(flaggedLines([typescript, script, transforms])).toEqual([
      [
        [1, 'no-restricted-imports'],
        [2, 'no-restricted-imports'],
        [3, 'no-restricted-imports'],
        [4, 'no-restricted-imports'],
        // class-transformer's decorators only through transforms.ts.
        [10, 'no-restricted-imports'],
        [12, 'no-restricted-syntax'],
        [12, 'no-restricted-syntax'],
      ],
      [
        [1, 'no-restricted-syntax'],
        [5, 'no-restricted-syntax'],
        [6, 'no-restricted-syntax'],
      ],
      [],
    ]);
  }, 120_000);
});

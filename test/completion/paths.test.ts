import { describe, expect, it } from 'vitest';
import { pathKind } from '../../src/completion/names';
import { svc } from '../helpers/cli';

describe('file-name completion: one rule on argument and value names', () => {
  it('file, dir, *-file and @file are local paths; file_id, path and other names are not', () => {
    expect(['file', 'dir', 'output-file', 'message_file', 'json|@file|@-'].map(pathKind)).toEqual(['file', 'file', 'file', 'file', '@file']);
    expect(['file_id', 'file_id...', 'path', 'profile', 'files', 'key=value'].map(pathKind)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('the generated table marks the command tree by that rule: positional files, -O, --data; not file IDs, API or memory paths', async () => {
    const r = await svc(['completion', 'bash']);
    expect(r.code).toBe(0);
    const fileRows = r.stdout.split('\n').filter((l) => l.trimStart().startsWith("'F|"));
    const row = (keys: string, kind: string) => `    ${keys}) REPLY='${kind}' ;;`;
    expect(fileRows).toEqual(
      expect.arrayContaining([
        row(`'F|files upload|#0'`, 'file'),
        row(`'F|skills create-version|#1'`, 'file'),
        row(`'F|sessions export|-O'|'F|sessions export|--output-file'`, 'file'),
        row(`'F|run|--message-file'`, 'file'),
        row(`'F|agents create|--data'`, '@file'),
      ]),
    );
    const keys = fileRows.join(' ');
    for (const absent of ['F|sessions send|--file', 'F|sessions create|--resource-file', 'F|api|#1', 'F|memories write|#1', 'F|skills create-version|#0'])
      expect(keys).not.toContain(`'${absent}'`);
  });
});

import { LIMITS } from '../../wire/limits';
import { invalidParam } from '../errors';
import { acceptUpload, removeBlob, sendContent } from '../multipart';
import type { EmuRequest } from '../router';
import type { Emulator } from '../server';
import { publicView, type Rec } from '../store';
import { listNewest } from '../listing';

/**
 * Emulator assumption: a multipart `purpose` field makes a file `batch`; the default is `user_data`.
 * Batch files cannot be attached to sessions (Versioning rule 2).
 */
const PURPOSES = ['user_data', 'batch'] as const;

type FileRec = Rec & { filename: string; mime_type: string; size_bytes: number; purpose: string; _path: string; _compat: boolean };

/**
 * Without the version header, /v1/files* speaks the compatibility format (Versioning rule 2):
 * `status` and `status_details` replace `extract_status`. Emulator assumption: uploads are processed
 * at once, so the values are `processed` / null and `completed`.
 */
function fileView(f: FileRec, versioned: boolean): Record<string, unknown> {
  const base = publicView(f);
  return versioned ? { ...base, extract_status: 'completed' } : { ...base, status: 'processed', status_details: null };
}

export function registerFiles(emu: Emulator): void {
  const files = emu.collection<FileRec>('files', 'file', 'file');
  emu.onClose(() => files.values().forEach((f) => removeBlob(f._path)));

  emu.services.files = {
    get: (id) => {
      const f = files.get(id);
      return f && { id: f.id, compat: f._compat, purpose: f.purpose, filename: f.filename };
    },
  };

  emu.router.post(
    '/v1/files',
    (r) =>
      acceptUpload(emu, r, LIMITS.fileUpload, (form) => {
        const purpose = form.fields.purpose ?? 'user_data';
        if (!(PURPOSES as readonly string[]).includes(purpose)) invalidParam('body.purpose', `purpose must be one of ${PURPOSES.join(', ')}`);
        const file = form.claim();
        const f = files.insert({ filename: file.filename, mime_type: file.mimeType, size_bytes: file.size, purpose, _path: file.path, _compat: !r.versioned });
        return { status: r.versioned ? 201 : 200, body: fileView(f, r.versioned) };
      }),
    { body: 'raw' },
  );

  emu.router.get('/v1/files', (r) => {
    return listNewest(files, r.query, { view: (f) => fileView(f, r.versioned) });
  });

  emu.router.get('/v1/files/:id', (r: EmuRequest) => ({ status: 200, body: fileView(files.must(r.params.id), r.versioned) }));

  emu.router.get('/v1/files/:id/content', (r) => {
    const f = files.must(r.params.id);
    return sendContent(r, { path: f._path, size: f.size_bytes }, f.mime_type, f.filename);
  });

  emu.router.delete('/v1/files/:id', (r) => {
    const f = files.must(r.params.id);
    files.delete(f.id);
    removeBlob(f._path);
    // Emulator assumption: the compatibility delete answers `{id, deleted: true}`.
    return r.versioned ? { status: 204 } : { status: 200, body: { id: f.id, deleted: true } };
  });
}

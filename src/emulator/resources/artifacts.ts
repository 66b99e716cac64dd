import { createHash } from 'node:crypto';
import { fail, invalidParam } from '../errors';
import { sendContent } from '../multipart';
import type { Emulator } from '../server';
import { listReply, nowIso, publicView, type Rec } from '../store';
import { listNewest } from '../listing';

type ArtifactVersion = { version: number; size_bytes: number; sha256: string; mime_type: string; created_at: string; _base64: string };
type Artifact = Rec & { session_id: string; name: string; mime_type: string; latest_version: number; _versions: ArtifactVersion[] };

const versionView = (a: Artifact, v: ArtifactVersion) => ({ artifact_id: a.id, ...publicView(v) });

/** Artifacts a session delivered (`/artifact NAME`); a repeated name in one session adds a version. */
export function registerArtifacts(emu: Emulator): void {
  const artifacts = emu.collection<Artifact>('artifacts', 'artifact', 'artifact');

  emu.services.artifacts = {
    deliver(sessionId, name, content, mimeType = 'application/octet-stream') {
      const version: ArtifactVersion = {
        version: 1,
        size_bytes: content.length,
        sha256: createHash('sha256').update(content).digest('hex'),
        mime_type: mimeType,
        created_at: nowIso(),
        _base64: content.toString('base64'),
      };
      const a = artifacts.values().find((x) => x.session_id === sessionId && x.name === name);
      if (!a) return { id: artifacts.insert({ session_id: sessionId, name, mime_type: mimeType, latest_version: 1, _versions: [version] }).id, version: 1 };
      version.version = a.latest_version + 1;
      a._versions.push(version);
      artifacts.touch(a, { latest_version: version.version, mime_type: mimeType } as Partial<Artifact>);
      return { id: a.id, version: version.version };
    },
  };

  emu.router.get('/v1/artifacts', (r) => {
    const sessionId = r.query.get('session_id');
    return listNewest(artifacts, r.query, { keep: (a) => sessionId === null || a.session_id === sessionId });
  });

  emu.router.get('/v1/artifacts/:id', (r) => ({ status: 200, body: publicView(artifacts.must(r.params.id)) }));

  emu.router.get('/v1/artifacts/:id/versions', (r) => {
    const a = artifacts.must(r.params.id);
    return listReply(
      [...a._versions].reverse(),
      r.query,
      (v) => versionView(a, v),
      (v) => String(v.version),
    );
  });

  emu.router.get('/v1/artifacts/:id/content', (r) => {
    const a = artifacts.must(r.params.id);
    const raw = r.query.get('version');
    if (raw !== null && !/^[1-9]\d*$/.test(raw)) invalidParam('query.version', 'version must be a positive integer');
    // Without `version` the latest one is downloaded (Download artifact content).
    const n = raw === null ? a.latest_version : Number(raw);
    const v = a._versions.find((x) => x.version === n) ?? fail('resource_not_found_error', `artifact ${a.id} has no version ${n}`);
    return sendContent(r, Buffer.from(v._base64, 'base64'), v.mime_type, a.name);
  });
}

import { randomBytes } from 'node:crypto';

/** The three kinds of Bearer credential (spec: Authentication). */
export type Credential =
  { kind: 'api' } | { kind: 'environment'; environmentId: string } | { kind: 'session'; sessionId: string; workId: string; environmentId: string };

export type CredentialKind = Credential['kind'];

const PREFIX: Record<CredentialKind, string> = { api: 'sk_emu_', environment: 'ek_emu_', session: 'st_emu_' };

/** Issued credentials. How real ones are issued is not shown (docs/service.md): the emulator mints them. */
export class Credentials {
  private readonly byToken = new Map<string, Credential>();

  issue(cred: Credential, token = PREFIX[cred.kind] + randomBytes(18).toString('base64url')): string {
    this.byToken.set(token, cred);
    return token;
  }

  resolve(token: string): Credential | undefined {
    return this.byToken.get(token);
  }

  revoke(token: string): void {
    this.byToken.delete(token);
  }
}

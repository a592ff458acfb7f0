import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { DomainError } from '../../../common/errors/domain-error';
import { AppConfig } from '../../../config/app-config';
import { ImportError } from '../import-summary';

/** What a sealed value starts with: the form, then the key's id. */
const PREFIX = 'sealed:v1:';

interface SealKey {
  id: string;
  key: Buffer;
}

/** A key as the cipher takes it (HKDF of the setting), with an id that names it without telling it. */
function sealKeyOf(setting: string): SealKey {
  const key = Buffer.from(hkdfSync('sha256', setting, 'cal-events-service', 'import credentials v1', 32));
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 8), key };
}

/**
 * Seals the passwords import subscriptions keep (issue 49) with `CREDENTIALS_KEY` (AES-256-GCM, a fresh
 * nonce per value): the database, its backups and its dumps hold no readable password. A value sealed with a
 * key of `CREDENTIALS_PREVIOUS_KEYS` still opens, and `needsResealing` tells the caller to seal it again; a
 * password kept readable by an older build opens as it is, and needs resealing too.
 */
@Injectable()
export class CredentialSeal {
  private readonly current: SealKey | null;
  private readonly all: Map<string, SealKey>;

  constructor(config: AppConfig) {
    const { current, previous } = config.credentialKeys;
    this.current = current === '' ? null : sealKeyOf(current);
    this.all = new Map([...(this.current ? [this.current] : []), ...previous.map(sealKeyOf)].map((k) => [k.id, k]));
  }

  seal(plain: string): string {
    if (!this.current) throw new DomainError('credentials_key_missing');
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, nonce);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${this.current.id}:${Buffer.concat([nonce, cipher.getAuthTag(), sealed]).toString('base64')}`;
  }

  /** The password a stored value holds ('' for none); an `ImportError` when no configured key opens it. */
  open(stored: string | null): string {
    if (stored === null || stored === '') return '';
    if (!stored.startsWith(PREFIX)) return stored;
    const [id, body] = stored.slice(PREFIX.length).split(':');
    const key = this.all.get(id ?? '');
    if (!key || !body)
      throw new ImportError(
        'the source password was sealed with a key that is not configured: set CREDENTIALS_KEY (or CREDENTIALS_PREVIOUS_KEYS) to it, or give the subscription its password again',
      );
    const bytes = Buffer.from(body, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key.key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    try {
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      throw new ImportError('the source password does not open with its key: give the subscription its password again');
    }
  }

  /**
   * Whether a stored value should be sealed again: kept readable, or sealed with a previous key. One sealed
   * with a key that is not configured cannot be: its run fails, and says why.
   */
  needsResealing(stored: string | null): boolean {
    if (stored === null || stored === '' || !this.current) return false;
    if (!stored.startsWith(PREFIX)) return true;
    const id = stored.slice(PREFIX.length).split(':')[0];
    return id !== this.current.id && this.all.has(id);
  }
}

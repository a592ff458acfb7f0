import type { AuthUser } from '../../auth/auth-user';
import type { AppConfig } from '../../config/app-config';
import { NAMESPACE } from './namespace';
import type { RequestContext } from './request-context';

/**
 * The context of work no HTTP request carries (webhook payloads, imports): on the public URL (`PUBLIC_URL`;
 * without it, this host's port), in English, as `user` (null: anonymous).
 */
export function systemRequestContext(
  config: AppConfig,
  options: { user: AuthUser | null; requestId: string; clientAddress: string; siteHost?: string | null },
): RequestContext {
  const siteUrl = (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/$/, '');
  const restBase = `${siteUrl}${config.apiPrefix}`;
  return {
    kind: 'request-context',
    user: options.user,
    language: 'en',
    restBase,
    siteUrl,
    ...(options.siteHost ? { siteHost: options.siteHost } : {}),
    namespaceUrl: `${restBase}/${NAMESPACE}`,
    dialect: 'cal',
    requestId: options.requestId,
    clientAddress: options.clientAddress,
  };
}

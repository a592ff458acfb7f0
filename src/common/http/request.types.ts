import type { AuthUser } from '../../auth/auth-user';
import type { Language } from '../i18n/language';

declare module 'express-serve-static-core' {
  interface Request {
    /** Language of human-readable texts, from the optional segment before the namespace. */
    language?: Language;
    /** Base of this request's REST URLs: origin, API prefix and language segment, no trailing slash. */
    restBase?: string;
    /** Origin of the site (PUBLIC_URL or the request's), for permalinks and global ids. */
    siteUrl?: string;
    /** The host of global ids (SiteIdentity); absent: `siteUrl`'s own. */
    siteHost?: string;
    /** Set when the request came through the TEC-compatible alias (`/wp-json/tribe/events/v1/...`). */
    tecAlias?: boolean;
    /** The authenticated caller; absent for anonymous requests. */
    user?: AuthUser;
    /**
     * The route template of an answer that skipped the router: served from the response cache, or by a
     * middleware (`/metrics`). The request metrics label it so, not `unmatched`.
     */
    cachedRoute?: string;
  }
}

import type { AttachmentDetailsEntity } from './attachment-details.entity';

/** The `image` member of events, venues and organizers: `false`, or this object. */
export interface ImageObject {
  id: number;
  url: string;
  extension: string;
  mime_type: string;
}

const MIME_BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
};

/** The file extension of a URL's path, lower case, '' when it has none. */
export function extensionOf(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return '';
  }
  const match = /\.([A-Za-z0-9]{1,8})$/.exec(path);
  return match ? match[1].toLowerCase() : '';
}

export function mimeTypeOf(url: string): string {
  return MIME_BY_EXTENSION[extensionOf(url)] ?? '';
}

export function toImageObject(details: AttachmentDetailsEntity): ImageObject {
  return {
    id: details.postId,
    url: details.url,
    extension: extensionOf(details.url),
    mime_type: details.mimeType,
  };
}

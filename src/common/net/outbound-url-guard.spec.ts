import { describe, expect, it } from '@jest/globals';
import { isPublicAddress, refuseOutboundUrl } from './outbound-url-guard';

describe('webhook URL guard (SSRF)', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::127.0.0.1',
    '::7f00:1',
    '::808:808',
    '64:ff9b::7f00:1',
    '2002:7f00:1::1',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('refuses URLs that are no http(s), carry credentials or point inside', async () => {
    expect(await refuseOutboundUrl('ftp://example.org/hook', false)).toMatch(/http/);
    expect(await refuseOutboundUrl('https://user:pw@93.184.216.34/hook', false)).toMatch(/credentials/);
    expect(await refuseOutboundUrl('http://127.0.0.1:8080/hook', false)).toMatch(/private/);
    expect(await refuseOutboundUrl('http://[::1]/hook', false)).toMatch(/private/);
    expect(await refuseOutboundUrl('http://[::127.0.0.1]/hook', false)).toMatch(/WEBHOOKS_ALLOW_PRIVATE=true/);
    expect(await refuseOutboundUrl('http://[::ffff:127.0.0.1]:3000/hook', false)).toMatch(/private/);
    expect(await refuseOutboundUrl('http://0x7f.1/hook', false)).toMatch(/private/);
    expect(await refuseOutboundUrl('http://localhost/hook', false)).toMatch(/private|resolve/);
    expect(await refuseOutboundUrl('not a url', false)).toMatch(/URL/);
  });

  it('accepts public addresses, and private ones only when allowed', async () => {
    expect(await refuseOutboundUrl('https://93.184.216.34/hook', false)).toBeNull();
    expect(await refuseOutboundUrl('http://127.0.0.1:8080/hook', true)).toBeNull();
  });
});

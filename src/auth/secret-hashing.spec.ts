import { describe, expect, it } from '@jest/globals';
import { generateApplicationPassword, hashSecret, normalizeApplicationPassword, verifySecret } from './secret-hashing';

describe('secret hashing', () => {
  it('verifies the right secret and refuses a wrong one', async () => {
    const stored = await hashSecret('correct horse');
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(stored).not.toContain('correct horse');
    await expect(verifySecret('correct horse', stored)).resolves.toBe(true);
    await expect(verifySecret('correct horsE', stored)).resolves.toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashSecret('same')).not.toBe(await hashSecret('same'));
  });

  it('refuses a stored value of another scheme', async () => {
    await expect(verifySecret('x', 'md5$abc')).resolves.toBe(false);
  });
});

describe('application passwords', () => {
  it('are 24 letters and digits in groups of four', () => {
    const pw = generateApplicationPassword();
    expect(pw).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    expect(generateApplicationPassword()).not.toBe(pw);
  });

  it('are accepted with or without spaces', () => {
    expect(normalizeApplicationPassword('abcd EFGH 1234')).toBe('abcdEFGH1234');
  });
});

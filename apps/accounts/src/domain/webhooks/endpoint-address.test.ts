import { describe, expect, it } from 'vitest';
import { isPrivateAddress, literalAddress } from './endpoint-address.js';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fd12::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
  ])('%s is private', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '172.32.0.1', '192.169.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8', 'example.com'])(
    '%s is not',
    (address) => {
      expect(isPrivateAddress(address)).toBe(false);
    },
  );
});

describe('literalAddress', () => {
  it('reads IPv4 and bracketed IPv6 hosts, and nothing from names', () => {
    expect([literalAddress('127.0.0.1'), literalAddress('[::1]'), literalAddress('localhost')]).toEqual([
      '127.0.0.1',
      '::1',
      null,
    ]);
  });
});

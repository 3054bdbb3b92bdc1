import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashPassword, needsRehash, verifyPassword } from './password.ts';

const FAST = { ln: 10, r: 8, p: 1 };

test('a hash verifies its own password and no other', async () => {
  const hash = await hashPassword('geheim', FAST);
  assert.match(hash, /^\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
  assert.equal(await verifyPassword('geheim', hash), true);
  assert.equal(await verifyPassword('Geheim', hash), false);
  assert.equal(await verifyPassword('', hash), false);
});

test('the same password hashes differently each time (salted)', async () => {
  assert.notEqual(await hashPassword('anna', FAST), await hashPassword('anna', FAST));
});

test('default parameters are in the hash and verify', async () => {
  const hash = await hashPassword('personal');
  assert.ok(hash.startsWith('$scrypt$ln=15,r=8,p=1$'));
  assert.equal(await verifyPassword('personal', hash), true);
  assert.equal(needsRehash(hash), false);
  assert.equal(needsRehash(await hashPassword('x', FAST)), true);
});

test('malformed or hostile hash strings are rejected, not thrown', async () => {
  for (const bad of [
    '',
    'plain',
    '$scrypt$ln=40,r=8,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5',
    '$scrypt$ln=10,r=8,p=1$$',
  ]) {
    assert.equal(await verifyPassword('x', bad), false, bad);
  }
});

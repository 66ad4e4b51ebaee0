// The secrets of a backup, encrypted with the owner's passphrase: scrypt derives a 256-bit key from the
// passphrase and a random salt, AES-256-GCM encrypts with a random nonce; salt, nonce and tag are stored next
// to the ciphertext (lib/backup/README.md, "Secrets"). A wrong passphrase or a changed byte fails the tag check.
import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto'
import { AppError } from '../core/errors.js'

/** scrypt's cost: N = 2^15, r = 8 (about 32 MiB and a tenth of a second per try). */
const KDF = { N: 32768, r: 8, p: 1 } as const
const AAD = Buffer.from('lingxi-backup secrets v1')

export interface Sealed { kdf: 'scrypt'; N: number; r: number; p: number; salt: string; nonce: string; tag: string; data: string }

function deriveKey (passphrase: string, salt: Buffer, k: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(passphrase.normalize('NFC'), salt, 32, { ...k, maxmem: 128 * k.N * k.r * 2 }, (err, key) => err ? reject(err) : resolve(key))
  })
}

export async function seal (plain: Buffer, passphrase: string): Promise<Sealed> {
  const salt = randomBytes(16)
  const nonce = randomBytes(12)
  const key = await deriveKey(passphrase, salt, KDF)
  const c = createCipheriv('aes-256-gcm', key, nonce)
  c.setAAD(AAD)
  const data = Buffer.concat([c.update(plain), c.final()])
  return { kdf: 'scrypt', ...KDF, salt: salt.toString('base64'), nonce: nonce.toString('base64'), tag: c.getAuthTag().toString('base64'), data: data.toString('base64') }
}

export async function unseal (s: Sealed, passphrase: string): Promise<Buffer> {
  // the cost is read from the file but bounded: a crafted file cannot make us spend gigabytes
  if (s.N > 1 << 20 || s.r > 32 || s.p > 4 || (s.N & (s.N - 1)) !== 0) throw new AppError('INVALID_ARGS', 'The backup\'s secrets use key-derivation settings outside the accepted range')
  const key = await deriveKey(passphrase, Buffer.from(s.salt, 'base64'), s)
  try {
    const d = createDecipheriv('aes-256-gcm', key, Buffer.from(s.nonce, 'base64'))
    d.setAAD(AAD)
    d.setAuthTag(Buffer.from(s.tag, 'base64'))
    return Buffer.concat([d.update(Buffer.from(s.data, 'base64')), d.final()])
  } catch {
    throw new AppError('INVALID_ARGS', 'The passphrase does not open this backup\'s secrets (wrong passphrase, or the secrets were changed)')
  }
}

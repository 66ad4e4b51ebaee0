// DNS for fetch_url: a name is resolved once, every address it resolves to is checked, and the
// connection goes to a checked address (the lookup undici's connector calls answers with the
// pinned addresses only), so a name that resolves to a public address at the check and to 127.0.0.1 a
// moment later (DNS rebinding) cannot move the connection.
import { lookup as dnsLookup } from 'node:dns/promises'
import type { LookupAddress } from 'node:dns'
import { AppError } from '../core/errors.js'
import { isAddressLiteral, isPublicAddress } from './address.js'

/** Resolves a host name to its addresses (tests inject one; default: the system resolver). */
export type Resolver = (host: string) => Promise<LookupAddress[]>

export const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true })

const bare = (host: string): string => host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host

/**
 * Who may be reached: public addresses, every address (`allowPrivate`), a few named addresses
 * (`allowAddresses`, canonical spelling), or every address of a few host names (`allowHosts`, lower case).
 */
export interface AddressPolicy { allowPrivate: boolean; allowAddresses?: ReadonlySet<string>; allowHosts?: ReadonlySet<string> }

/** Whether `address` may be reached; rejects (so the fetch is refused) when the address check cannot run. */
const allowed = async (address: string, policy: AddressPolicy): Promise<boolean> =>
  policy.allowPrivate || (await isPublicAddress(address)) || (policy.allowAddresses?.has(address) ?? false)

/**
 * The addresses to connect to for `host` (a URL's hostname): a literal as it is, a name resolved.
 * Refused (FORBIDDEN) when any of them is not allowed by `policy`.
 */
export async function resolveChecked (host: string, resolver: Resolver, policy: AddressPolicy): Promise<LookupAddress[]> {
  const name = bare(host)
  // a host the master named: its addresses may be private (still resolved once and pinned)
  if (policy.allowHosts?.has(name.toLowerCase())) policy = { ...policy, allowPrivate: true }
  if (await isAddressLiteral(name)) {
    if (!(await allowed(name, policy))) throw new AppError('FORBIDDEN', `Address ${name} is not public (loopback, private, link-local or reserved): refused`)
    return [{ address: name, family: name.includes(':') ? 6 : 4 }]
  }
  let addresses: LookupAddress[]
  try {
    addresses = await resolver(name)
  } catch {
    throw new AppError('CONNECTION_FAILED', `Host ${name} could not be resolved`)
  }
  if (addresses.length === 0) throw new AppError('CONNECTION_FAILED', `Host ${name} could not be resolved`)
  // Every address must pass: a name mixing one public and one private address is refused.
  let bad: LookupAddress | undefined
  for (const a of addresses) if (!(await allowed(a.address, policy))) { bad = a; break }
  if (bad) throw new AppError('FORBIDDEN', `Host ${name} resolves to ${bad.address}, which is not public: refused`)
  return addresses
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/** A `lookup` for net/tls.connect that answers only with the pinned addresses. */
export function pinnedLookup (pinned: LookupAddress[]): (host: string, opts: { all?: boolean }, cb: LookupCallback) => void {
  return (_host, opts, cb) => {
    const first = pinned[0]!
    if (opts?.all) cb(null, pinned)
    else cb(null, first.address, first.family)
  }
}

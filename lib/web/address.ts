// Which addresses fetch_url may connect to: public unicast only. Loopback, private (RFC 1918, IPv6
// unique-local), link-local, CGNAT, multicast, broadcast, unspecified, documentation/benchmark/reserved
// ranges are refused; IPv6 forms that carry an IPv4 address (IPv4-mapped, NAT64, 6to4) are judged by
// that IPv4 address. Odd IPv4 spellings (2130706433, 0x7f.1, 0177.0.0.1) are canonicalised by the
// WHATWG URL parser before they get here; parseAddress accepts them too (ipaddr.js).
// ipaddr.js is loaded with the first check, never at start (lib/core/packages.ts). Without it every
// check fails closed: both functions reject (SERVICE_UNAVAILABLE naming the package), so no address
// is ever taken for public, and nothing is fetched.
import type ipaddr from 'ipaddr.js'
import { AppError, errorText } from '../core/errors.js'
import { importOptional } from '../core/packages.js'

type Parsed = ipaddr.IPv4 | ipaddr.IPv6
type IpAddr = typeof ipaddr

let loaded: IpAddr | undefined
let loading: Promise<IpAddr> | undefined
/** ipaddr.js, loaded once (a failed load is tried again next time). */
function loadIpAddr (): Promise<IpAddr> {
  return (loading ??= importOptional('ipaddr.js', () => import('ipaddr.js')).then((m) => (loaded = m.default), (err: unknown) => {
    loading = undefined
    throw new AppError('SERVICE_UNAVAILABLE', errorText(err), { cause: err })
  }))
}

/** IPv6 ranges whose last 32 bits (6to4: bits 16-48) are an IPv4 address that decides. */
function embeddedV4 (lib: IpAddr, v6: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const range = v6.range()
  const p = v6.parts
  if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') {
    return new lib.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff])
  }
  if (range === '6to4') return new lib.IPv4([p[1]! >> 8, p[1]! & 0xff, p[2]! >> 8, p[2]! & 0xff])
  return undefined
}

function isPublic (lib: IpAddr, addr: Parsed): boolean {
  if (addr.kind() === 'ipv4') return addr.range() === 'unicast'
  const v6 = addr as ipaddr.IPv6
  const v4 = embeddedV4(lib, v6)
  if (v4) return isPublic(lib, v4)
  // Only 2000::/3 is global unicast; the deprecated IPv4-compatible ::a.b.c.d lies outside it.
  return v6.range() === 'unicast' && (v6.parts[0]! & 0xe000) === 0x2000
}

/** The address as ipaddr.js reads it (IPv6 without brackets, zone ids refused), or undefined. */
function parseAddress (lib: IpAddr, text: string): Parsed | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text
  if (bare.includes('%')) return undefined
  try { return lib.parse(bare) } catch { return undefined }
}

/** True when `text` is an IP address (any spelling ipaddr.js reads). Rejects when ipaddr.js is missing. */
export async function isAddressLiteral (text: string): Promise<boolean> {
  return parseAddress(loaded ?? await loadIpAddr(), text) !== undefined
}

/**
 * True when `text` is a public unicast address; false for any other address or non-address. Rejects
 * when ipaddr.js is missing (fails closed: the caller refuses the address).
 */
export async function isPublicAddress (text: string): Promise<boolean> {
  const lib = loaded ?? await loadIpAddr()
  const parsed = parseAddress(lib, text)
  return parsed !== undefined && isPublic(lib, parsed)
}

import { ApiVersion, DECLARABLE, isDeclarable } from '../api-version.js'
import { coded } from '../errors.js'
import type { RouteKind, VersioningRoute } from './declaration-state.js'
import { declaredVersion } from './declared-version.js'

/** A route's versioning declaration, checked. */
export interface RouteDeclaration {
  readonly kind: RouteKind
  readonly supported: readonly ApiVersion[]
  readonly deprecated: readonly ApiVersion[]
  /** Versions of the path that other services implement: reported, never routed here. */
  readonly advertised: readonly ApiVersion[]
  readonly advertisedDeprecated: readonly ApiVersion[]
}

/** The version headers of a path from one instant on. */
interface ReportedVersions {
  readonly from: number
  readonly supported: string | null
  readonly deprecated: string | null
}

/** A version another service implements, as a route advertised it. */
interface Advertised {
  readonly version: ApiVersion
  readonly deprecated: boolean
  readonly label: string
}

/** The versions of one path over all its methods: what `reportApiVersions` reports. */
export class PathEntry {
  // The declarations of the routes here, with their routes' labels: read until the entry is sealed, then dropped (no
  // route is added after ready). Kept as given, their versions joined at seal: routes alike share a declaration,
  // so a thousand paths of a hundred versions add a reference each where they would add a hundred entries.
  private declarations: Array<{ readonly declaration: RouteDeclaration, readonly label: string }> = []
  // Versions other services implement, by key, with the route that advertised them (for a start-up error): made at
  // the first, as few paths have any (the entries of a thousand paths would otherwise each make a map).
  private advertised: Map<string, Advertised> = EMPTY
  private implementedKeys: ReadonlySet<string> = NO_KEYS
  private periods: readonly ReportedVersions[] = NO_PERIODS
  /** The header values while no enforced sunset of the path has passed: for a path without one, always. */
  reported: ReportedVersions = UNSEALED
  /** True when an enforced sunset changes the header values: `at` needs the request's time. */
  timed = false

  /** Adds a route's versions; throws when a version is both implemented here and advertised as another service's. */
  add (declaration: RouteDeclaration, label: string): void {
    if (this.advertised.size > 0) {
      for (const v of [...declaration.supported, ...declaration.deprecated]) {
        const elsewhere = this.advertised.get(v.key)
        if (elsewhere !== undefined) throw advertisedHere(elsewhere.label, elsewhere.version, label)
      }
    }
    this.declarations.push({ declaration, label })
    for (const [list, deprecated] of [[declaration.advertised, false], [declaration.advertisedDeprecated, true]] as const) {
      for (const v of list) {
        const here = this.declarations.find(({ declaration }) => keysOf(declaration).has(v.key))
        if (here !== undefined) throw advertisedHere(label, v, here.label)
        this.keepAdvertised(v.key, { version: v, deprecated, label })
      }
    }
  }

  /**
   * Builds the header values once routes are final: ascending, deprecated minus supported. A version whose
   * enforced sunset passes leaves them from then on, so there is one pair of values per period.
   */
  seal (retiresAt: (version: ApiVersion) => number | null, shared: SharedKeys): void {
    // Paths of the same declarations (in the same order) and no advertised versions have the same values.
    const given = [...new Set(this.declarations.map(({ declaration }) => declaration))]
    const id = this.advertised.size === 0 ? shared.idOf(given) : null
    const known = id === null ? undefined : shared.sealed.get(id)
    if (known !== undefined) {
      ({ periods: this.periods, keys: this.implementedKeys } = known)
    } else {
      const supported = new Map<string, ApiVersion>()
      const deprecated = new Map<string, ApiVersion>()
      for (const declaration of given) {
        for (const v of declaration.supported) if (!supported.has(v.key)) supported.set(v.key, v)
        for (const v of declaration.deprecated) if (!deprecated.has(v.key)) deprecated.set(v.key, v)
      }
      // Advertised versions are reported as this path's own are (a supported one over a deprecated one).
      const advertised = [...this.advertised.values()]
      const supportedAll = [...supported.values(), ...advertised.filter(a => !a.deprecated).map(a => a.version)]
      const supportedKeys = new Set(supportedAll.map(v => v.key))
      const deprecatedAll = [...deprecated.values(), ...advertised.filter(a => a.deprecated).map(a => a.version)]
        .filter(v => !supportedKeys.has(v.key))
      const instants = [...new Set([...supportedAll, ...deprecatedAll].map(retiresAt).filter(at => at !== null))].sort((a, b) => a - b)
      this.periods = shared.periods([-Infinity, ...instants].map(from => {
        const live = (v: ApiVersion): boolean => (retiresAt(v) ?? Infinity) > from
        return {
          from,
          supported: formatVersions(supportedAll.filter(live)),
          deprecated: formatVersions(deprecatedAll.filter(live))
        }
      }))
      this.implementedKeys = shared.keys(new Set(given.flatMap(declaration => [...keysOf(declaration)])))
      if (id !== null) shared.sealed.set(id, { periods: this.periods, keys: this.implementedKeys })
    }
    this.reported = this.periods[0]
    this.timed = this.periods.length > 1
  }

  /** Lets go of what only the declarations and seal read, once every entry of the table is sealed. */
  forget (): void {
    this.declarations = NO_DECLARATIONS
    this.advertised = EMPTY
  }

  /** Whether a route here implements a version (by key): once sealed. */
  implements (key: string): boolean {
    return this.implementedKeys.has(key)
  }

  /** Reports the versions `path` advertises as well: another service's versions are the whole path's. */
  advertise (path: PathEntry): void {
    for (const [key, advertised] of path.advertised) this.keepAdvertised(key, advertised)
  }

  // The first route that advertised a version is the one a start-up error names.
  private keepAdvertised (key: string, advertised: Advertised): void {
    if (this.advertised === EMPTY) this.advertised = new Map()
    if (!this.advertised.has(key)) this.advertised.set(key, advertised)
  }

  /** The header values in force at `time` (a finite number); only a timed path has more than one period. */
  at (time: number): ReportedVersions {
    let i = this.periods.length - 1
    while (this.periods[i].from > time) i--
    return this.periods[i]
  }
}

const EMPTY = new Map<string, never>()
const NO_KEYS: ReadonlySet<string> = new Set()
const NO_PERIODS: readonly ReportedVersions[] = []
const NO_DECLARATIONS: never[] = []
const UNSEALED: ReportedVersions = { from: -Infinity, supported: null, deprecated: null }

/**
 * What the entries of a table share: the same set for the same keys (in the same order), the same periods for the
 * same header values (a thousand paths of one version list would otherwise hold a thousand copies of each), and
 * what an entry's seal made of the same declarations.
 */
export interface SharedKeys {
  keys: (keys: Iterable<string>) => ReadonlySet<string>
  periods: (periods: ReportedVersions[]) => ReportedVersions[]
  /** An id of these declarations, in this order. */
  idOf: (declarations: readonly RouteDeclaration[]) => string
  readonly sealed: Map<string, { readonly periods: readonly ReportedVersions[], readonly keys: ReadonlySet<string> }>
}

function sharedKeys (): SharedKeys {
  const sets = new Map<string, ReadonlySet<string>>()
  const lists = new Map<string, ReportedVersions[]>()
  const ids = new Map<RouteDeclaration, number>()
  return {
    keys (keys) {
      const list = [...keys]
      const id = list.join('\n')
      let set = sets.get(id)
      if (set === undefined) sets.set(id, set = new Set(list))
      return set
    },
    periods (periods) {
      const id = JSON.stringify(periods)
      let list = lists.get(id)
      if (list === undefined) lists.set(id, list = periods)
      return list
    },
    idOf (declarations) {
      return declarations.map(declaration => {
        let id = ids.get(declaration)
        if (id === undefined) ids.set(declaration, id = ids.size)
        return id
      }).join(' ')
    },
    sealed: new Map()
  }
}

/** The routes of one method on one router path that share the same other constraints (host, ...). */
export interface ConstraintVariant {
  /** The keys of the versions declared here: until the table is sealed. */
  versions: ReadonlySet<string>
  hasFallback: boolean
}

/** One method on one router path. */
export interface MethodEntry {
  kind: RouteKind | null
  /** Router handlers on this method and path, hidden routes included: find-my-way allows 31. */
  handlers: number
  readonly variants: Map<string, ConstraintVariant>
  readonly path: PathEntry
  /** The versions of this method alone: what an Unsupported answer reports for a version only other methods have. */
  readonly own: PathEntry
}

/** find-my-way's limit of handlers on one method and path once constraints are in use. */
export const MAX_HANDLERS = 31

/** A version header's value: ascending, `, `-separated; null for none. */
export function formatVersions (versions: ApiVersion[]): string | null {
  return versions.length === 0 ? null : versions.sort((a, b) => a.compareTo(b)).map(String).join(', ')
}

function advertisedHere (advertising: string, version: ApiVersion, implementing: string): Error {
  return coded(new Error(`fastify-api-versioning: route ${advertising} advertises API version ${version} as implemented by another service, but route ${implementing} implements it on this path; declare it in one place: in apiVersions or deprecatedApiVersions where it is served here, or in advertisedApiVersions where it is not`), 'FST_API_VERSIONING_ROUTE_CONFLICT')
}

/** The route options (and version set keys) that declare how a route takes part in versioning. */
export const DECLARATION_OPTIONS = ['apiVersions', 'deprecatedApiVersions', 'apiVersionNeutral', 'advertisedApiVersions', 'advertisedDeprecatedApiVersions'] as const

/** Reads and checks the versioning options of one route; throws naming the route. */
export function readDeclaration (options: Record<string, unknown>, label: string): RouteDeclaration {
  const { apiVersions, deprecatedApiVersions, apiVersionNeutral, advertisedApiVersions, advertisedDeprecatedApiVersions } = options
  const supportedKey = frozenList(apiVersions)
  const deprecatedKey = frozenList(deprecatedApiVersions)
  if (supportedKey === null || deprecatedKey === null || apiVersionNeutral !== undefined || advertisedApiVersions !== undefined || advertisedDeprecatedApiVersions !== undefined) {
    return checkedDeclaration(options, label)
  }
  let byDeprecated = declarations.get(supportedKey)
  if (byDeprecated === undefined) declarations.set(supportedKey, byDeprecated = new WeakMap())
  let declaration = byDeprecated.get(deprecatedKey)
  if (declaration === undefined) {
    const read = checkedDeclaration(options, label)
    declaration = Object.freeze({ ...read, supported: Object.freeze(read.supported), deprecated: Object.freeze(read.deprecated) })
    byDeprecated.set(deprecatedKey, declaration)
  }
  return declaration
}

// The declarations of frozen lists, by apiVersions, then deprecatedApiVersions (NO_LIST for none): a frozen list
// reads the same every time, and the routes of the versionChanges option share theirs, so a thousand routes of a
// hundred versions share one declaration where each would parse and check a hundred versions.
const declarations = new WeakMap<object, WeakMap<object, RouteDeclaration>>()
const NO_LIST = {}

function frozenList (value: unknown): object | null {
  if (value === undefined) return NO_LIST
  return Array.isArray(value) && Object.isFrozen(value) ? value : null
}

function checkedDeclaration (options: Record<string, unknown>, label: string): RouteDeclaration {
  const { apiVersions, deprecatedApiVersions, apiVersionNeutral, advertisedApiVersions, advertisedDeprecatedApiVersions } = options
  if (apiVersionNeutral !== undefined && typeof apiVersionNeutral !== 'boolean') {
    throw coded(new TypeError(`fastify-api-versioning: route ${label}: apiVersionNeutral must be true or false`), 'FST_API_VERSIONING_INVALID_DECLARATION')
  }
  const supported = readVersions(apiVersions, 'apiVersions', label)
  const deprecated = readVersions(deprecatedApiVersions, 'deprecatedApiVersions', label)
  const advertised = readVersions(advertisedApiVersions, 'advertisedApiVersions', label)
  const advertisedDeprecated = readVersions(advertisedDeprecatedApiVersions, 'advertisedDeprecatedApiVersions', label)
  const versioned = supported.length + deprecated.length > 0
  const advertises = advertised.length + advertisedDeprecated.length > 0
  if (apiVersionNeutral === true) {
    if (versioned || advertises) {
      throw coded(new Error(`fastify-api-versioning: route ${label} is version-neutral, so it cannot also declare apiVersions, deprecatedApiVersions or advertised versions`), 'FST_API_VERSIONING_INVALID_DECLARATION')
    }
    return { kind: 'neutral', supported, deprecated, advertised, advertisedDeprecated }
  }
  // Advertised versions are reported with a path's own, in the headers of its versioned routes.
  if (advertises && !versioned) {
    throw coded(new Error(`fastify-api-versioning: route ${label} advertises versions other services implement but implements none itself; give it apiVersions or deprecatedApiVersions as well`), 'FST_API_VERSIONING_INVALID_DECLARATION')
  }
  const seen = new Map<string, string>()
  const lists = { apiVersions: supported, deprecatedApiVersions: deprecated, advertisedApiVersions: advertised, advertisedDeprecatedApiVersions: advertisedDeprecated }
  for (const [name, list] of Object.entries(lists)) {
    for (const v of list) {
      const where = `${v} in ${name}`
      const first = seen.get(v.key)
      if (first !== undefined) throw coded(new Error(`fastify-api-versioning: route ${label} declares API version ${v} twice (${first}, ${where}); a route implements, deprecates or advertises a version once: remove one`), 'FST_API_VERSIONING_INVALID_DECLARATION')
      seen.set(v.key, where)
    }
  }
  return { kind: versioned ? 'versioned' : 'plain', supported, deprecated, advertised, advertisedDeprecated }
}

function readVersions (value: unknown, name: string, label: string): ApiVersion[] {
  if (value === undefined) return []
  const list = typeof value === 'string' ? [value] : value
  if (!Array.isArray(list) || list.length === 0) {
    throw coded(new TypeError(`fastify-api-versioning: route ${label}: ${name} must be a version string or a non-empty array of them`), 'FST_API_VERSIONING_INVALID_DECLARATION')
  }
  // Array.from visits the holes of a sparse array (`['1.0', , '2.0']`), which map would skip.
  return Array.from(list as unknown[], text => {
    const version = typeof text === 'string' ? declaredVersion(text) : null
    if (version === null) {
      const why = typeof text === 'string' ? "(expected [yyyy-MM-dd][.major[.minor]][-status], e.g. '1.0')" : "(give it as text, e.g. '1.0')"
      throw coded(new TypeError(`fastify-api-versioning: route ${label}: ${name} has ${shown(text)}, which is not a valid API version ${why}`), 'FST_API_VERSIONING_INVALID_DECLARATION')
    }
    if (!isDeclarable(version)) {
      throw coded(new TypeError(`fastify-api-versioning: route ${label}: ${name} has ${JSON.stringify(text)}, which cannot be sent in a header: ${DECLARABLE}`), 'FST_API_VERSIONING_INVALID_DECLARATION')
    }
    return version
  })
}

// A declared value as a start-up error shows it: an ApiVersion object is not its text, which would look valid.
function shown (value: unknown): string {
  if (value instanceof ApiVersion) return `the ApiVersion object ${value}`
  if (typeof value === 'object' && value !== null) return 'an object'
  return typeof value === 'string' ? JSON.stringify(value) : String(value)
}

/**
 * Every method and path the plugin has seen, to catch conflicting declarations at start-up. Paths are keyed as
 * the router keys them (`routePathKey`), and versions are checked per set of other constraints.
 */
export class RouteTable {
  readonly paths = new Map<string, PathEntry>()
  private readonly methods = new Map<string, MethodEntry>()
  /** Every version declared anywhere: what version-neutral routes accept. */
  readonly declared = new Set<string>()
  /** Every version advertised anywhere as another service's. */
  readonly advertised = new Set<string>()
  /** The form each declared version was first declared in (`1` and `1.0` are one version). */
  readonly forms = new Map<string, string>()
  /** Every versioned and version-neutral route: what the openapi entry checks it has seen. */
  readonly routes: VersioningRoute[] = []
  /** The versions of every route here (not another service's): what a version-neutral route's Unsupported reports. */
  readonly everywhere = new PathEntry()
  // The declarations whose versions are in `declared`, `forms` and `advertised`.
  private readonly recorded = new WeakSet<RouteDeclaration>()

  entry (method: string, pathKey: string): MethodEntry {
    const id = method + ' ' + pathKey
    let entry = this.methods.get(id)
    if (entry === undefined) {
      let path = this.paths.get(pathKey)
      if (path === undefined) this.paths.set(pathKey, path = new PathEntry())
      entry = { kind: null, handlers: 0, variants: new Map(), path, own: new PathEntry() }
      this.methods.set(id, entry)
    }
    return entry
  }

  /** Whether a route of one method, path and other constraints answers version problems there (a hidden route). */
  hasFallback (method: string, pathKey: string, constraintsKey: string): boolean {
    return this.methods.get(method + ' ' + pathKey)?.variants.get(constraintsKey)?.hasFallback === true
  }

  /** Records a hidden route. */
  addFallback (method: string, pathKey: string, constraintsKey: string): void {
    const entry = this.entry(method, pathKey)
    entry.handlers++
    this.variant(entry, constraintsKey).hasFallback = true
  }

  private variant (entry: MethodEntry, constraintsKey: string): ConstraintVariant {
    let variant = entry.variants.get(constraintsKey)
    if (variant === undefined) entry.variants.set(constraintsKey, variant = { versions: NO_KEYS, hasFallback: false })
    return variant
  }

  /** Records a route on one method; throws when it conflicts with a route already there. */
  add (method: string, pathKey: string, constraintsKey: string, declaration: RouteDeclaration, label: string): ConstraintVariant {
    const entry = this.entry(method, pathKey)
    if (entry.kind !== null && entry.kind !== declaration.kind) {
      throw coded(new Error(`fastify-api-versioning: route ${label} is ${describe(declaration.kind)}, but another ${label} route is ${describe(entry.kind)}; one method and path cannot mix them`), 'FST_API_VERSIONING_ROUTE_CONFLICT')
    }
    entry.kind = declaration.kind
    const variant = this.variant(entry, constraintsKey)
    if (declaration.kind === 'versioned') {
      // The route itself, and the hidden route it brings when it is the first of its constraints here.
      entry.handlers++
      if (entry.handlers + (variant.hasFallback ? 0 : 1) > MAX_HANDLERS) {
        throw coded(new Error(`fastify-api-versioning: route ${label} is one route too many: the router takes at most ${MAX_HANDLERS} routes on one method and path, the plugin's hidden route included; list several versions on one route instead, e.g. apiVersions: ['1.0', '1.1']`), 'FST_API_VERSIONING_ROUTE_CONFLICT')
      }
    }
    const keys = keysOf(declaration)
    if (variant.versions.size === 0) variant.versions = keys
    else {
      for (const v of [...declaration.supported, ...declaration.deprecated]) {
        if (variant.versions.has(v.key)) {
          throw coded(new Error(`fastify-api-versioning: route ${label} declares API version ${v}, which another ${label} route already declares`), 'FST_API_VERSIONING_ROUTE_CONFLICT')
        }
      }
      variant.versions = new Set([...variant.versions, ...keys])
    }
    entry.path.add(declaration, label)
    entry.own.add(declaration, label)
    // A declaration routes alike share is recorded once.
    if (!this.recorded.has(declaration)) {
      this.recorded.add(declaration)
      for (const v of [...declaration.supported, ...declaration.deprecated]) {
        this.declared.add(v.key)
        if (!this.forms.has(v.key)) this.forms.set(v.key, String(v))
      }
      for (const v of [...declaration.advertised, ...declaration.advertisedDeprecated]) this.advertised.add(v.key)
      if (declaration.kind === 'versioned') this.everywhere.add({ ...declaration, advertised: [], advertisedDeprecated: [] }, label)
    }
    return variant
  }

  /** Builds what requests read, once every route is declared, and lets go of what only the declarations read. */
  seal (retiresAt: (version: ApiVersion) => number | null): void {
    const shared = sharedKeys()
    for (const path of this.paths.values()) path.seal(retiresAt, shared)
    for (const entry of this.methods.values()) {
      entry.own.advertise(entry.path)
      entry.own.seal(retiresAt, shared)
      entry.own.forget()
      for (const variant of entry.variants.values()) variant.versions = NO_KEYS
    }
    for (const path of this.paths.values()) path.forget()
    this.everywhere.seal(retiresAt, shared)
    this.everywhere.forget()
  }
}

// The keys of a declaration's versions: found once a declaration, which routes alike share.
const declarationKeys = new WeakMap<RouteDeclaration, ReadonlySet<string>>()
function keysOf (declaration: RouteDeclaration): ReadonlySet<string> {
  let keys = declarationKeys.get(declaration)
  if (keys === undefined) declarationKeys.set(declaration, keys = new Set([...declaration.supported, ...declaration.deprecated].map(v => v.key)))
  return keys
}

function describe (kind: RouteKind): string {
  return kind === 'plain' ? 'unversioned' : kind === 'neutral' ? 'version-neutral' : 'versioned'
}

/**
 * Maps keyed by client strings (attributes, labels) as objects with no prototype: every key,
 * `__proto__` and `constructor` included, is plain data, and a lookup never finds an inherited
 * member. Objects keep the wire codecs and the proto conversions simple; Map would not.
 */
export function dict<V = string>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}

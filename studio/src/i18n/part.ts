/**
 * A part of Studio's dictionary: its English strings and the same keys in Chinese. The type
 * makes a key missing in either language a compile error.
 */
export interface Part<K extends string> {
  en: Record<K, string>;
  zh: Record<K, string>;
}

export function part<K extends string>(en: Record<K, string>, zh: Record<K, string>): Part<K> {
  return { en, zh };
}

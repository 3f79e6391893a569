const UNITS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const

/**
 * Reads a duration as the CLI takes it (README "CLI reference"): a positive whole number followed by one
 * unit, `s`, `m`, `h` or `d` (`30s`, `15m`, `1h`, `7d`). Returns milliseconds, or `null` for
 * anything else (zero, decimals, signs, spaces, other units, several parts).
 */
export function parseDuration(text: string): number | null {
  const match = /^([0-9]{1,9})([smhd])$/.exec(text)
  if (match === null) return null
  const amount = Number(match[1])
  const unit = match[2] as keyof typeof UNITS
  return amount > 0 ? amount * UNITS[unit] : null
}

/** A duration in ms written back in the largest unit that divides it (`3600000` → `1h`). */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm'] as const) {
    if (ms % UNITS[unit] === 0) return `${ms / UNITS[unit]}${unit}`
  }
  return `${Math.ceil(ms / 1_000)}s`
}

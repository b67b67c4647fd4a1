/*
 * The V8 flags the server is started with (`npm start`, and the README's production command).
 * A young generation of up to 32 MB per semi-space instead of V8's 16 MB: a nested read
 * allocates its rows, maps and JSON pieces faster than the default scavenges them, and spent
 * 13-15 % of its time in GC (bench:entities, PostgreSQL, "nested 20"); with 32 MB, 4 %, and
 * 30 % less server CPU per request. It costs up to 48 MB more heap per process under load.
 * NODE_OPTIONS or the command line that already sets the flag wins.
 */
export const SEMI_SPACE_MB = 32

/** The flags to add to `node` for a server process (none when NODE_OPTIONS sets the size). */
export function serverV8Flags(semiSpaceMb = SEMI_SPACE_MB, nodeOptions = process.env.NODE_OPTIONS ?? '') {
  if (!semiSpaceMb || /--max-semi-space-size/.test(nodeOptions)) return []
  return [`--max-semi-space-size=${semiSpaceMb}`]
}

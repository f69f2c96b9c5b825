/** Progress goes to stderr: stdout carries the report alone. */
export const log = (line: string) => console.error(`[bench] ${line}`)

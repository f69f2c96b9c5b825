/** Races: many requests at once, run again and again, and what each came to. */

/** How many times each outcome came up: ['a', 'b', 'a'] is { a: 2, b: 1 }. */
export function tally(outcomes: string[]) {
	const counts: Record<string, number> = {}
	for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1
	return counts
}

/**
 * Runs a race `runs` times and returns each run's tally of outcomes, for the test to hold every
 * one to what must happen. With `print` (a stress run asked for the repeats), the tallies are
 * printed under `label` so that their spread can be seen.
 */
export async function raceTallies(
	{ runs, label, print }: { runs: number; label: string; print: boolean },
	race: (run: number) => Promise<string[]>,
) {
	const results: Record<string, number>[] = []
	for (let run = 0; run < runs; run++) results.push(tally(await race(run)))
	if (print) console.log(label, JSON.stringify(results))
	return results
}

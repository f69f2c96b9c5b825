/** The weeks the dashboard lists until the student asks for all: one cohort's worth. */
export const RECENT_WEEKS = 8
/** `?weeks=all` lists every week of the course. */
export const ALL_WEEKS_PARAM = 'weeks'

export function listsAllWeeks(searchParams: URLSearchParams) {
	return searchParams.get(ALL_WEEKS_PARAM) === 'all'
}

/**
 * Other spellings of a row id that no link or form of the app writes. All but the full-width one
 * are read by Number() as the same row (a lax parser would serve it under a second address); the
 * literal '1e1' and '12.0' are the spellings of the report (issue 37). Each must answer like an id
 * that names no row.
 */
export function forgedIds(id: number | string) {
	const digits = String(id)
	const fullWidth = [...digits].map((digit) => String.fromCharCode(0xff10 + Number(digit))).join('')
	return [
		'1e1',
		'12.0',
		`${digits}e0`,
		`${digits}.0`,
		`${digits}.`,
		` ${digits}`,
		`${digits} `,
		`+${digits}`,
		`0${digits}`,
		`0x${Number(digits).toString(16)}`,
		fullWidth,
	]
}

/**
 * Money, shared by server and browser: amounts are whole cents everywhere but in a form field
 * (dollars as typed) and on the page (a formatted amount).
 */

// Built once per currency: creating an Intl formatter costs far more than formatting with one.
const formatters = new Map<string, Intl.NumberFormat>()

function formatterOf(currency: string) {
	const code = currency.toUpperCase()
	let formatter = formatters.get(code)
	if (!formatter) {
		formatter = new Intl.NumberFormat('en-US', { style: 'currency', currency: code })
		formatters.set(code, formatter)
	}
	return formatter
}

/**
 * Cents as an amount of money, '$1,250.00', in the payment's currency (US dollars unless told);
 * `free` names a zero amount where the page says so in words ('FREE', 'Free').
 */
export function formatMoney(cents: number, { currency = 'usd', free }: { currency?: string; free?: string } = {}) {
	if (cents === 0 && free !== undefined) return free
	return formatterOf(currency).format(cents / 100)
}

/** A price as the catalogue, the agreement and the checkout show it: 'FREE' when nothing is due. */
export function formatPrice(cents: number) {
	return formatMoney(cents, { free: 'FREE' })
}

/**
 * Dollars typed by a person — '250', '$1,250.50', ' 99.999 ', '-5' — in whole cents, rounded half
 * up ('1.005' is 101 cents, as a person expects); null when the text is not an amount of dollars
 * ('', 'ten dollars', '12abc', '1,25'). Bad input is never guessed at: each form says what null
 * means for it (the course form: no fee; the refund form: a format error).
 */
export function dollarsToCents(text: string): number | null {
	const match = /^(-?)\$?(-?)(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d*))?$/.exec(text.replace(/\s/g, ''))
	if (!match || (match[1] && match[2]) || (match[3] === undefined && !match[4])) return null
	const [, before, after, whole = '0', fraction = ''] = match
	const sign = before || after
	// A decimal shift on the digits rather than `* 100`, so that no binary rounding creeps in.
	const cents = Number(`${whole.replaceAll(',', '')}.${fraction || '0'}e2`)
	if (!Number.isFinite(cents)) return null
	const rounded = Math.round(cents)
	return sign === '-' && rounded !== 0 ? -rounded : rounded
}

/** Cents as a form field shows them: '2500.00'. */
export function centsToDollars(cents: number) {
	return (cents / 100).toFixed(2)
}

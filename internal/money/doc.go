// Package money formats prices and costs with the currency of their price table, in one form
// everywhere ("USD 0.1234/h", "CNY 12.34"). The ISO 4217 code comes first, since "$" and "¥"
// each name several currencies. Amounts in different currencies are never added: Totals keeps
// one sum per currency. It is a domain leaf with no imports of this module.
package money

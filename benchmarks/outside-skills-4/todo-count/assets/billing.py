"""Invoice generation for the shop (sample file for the todo-count skill)."""
from decimal import ROUND_HALF_UP, Decimal

VAT_RATE = Decimal("0.20")  # TODO: read per-country rates from settings


def line_total(price, quantity):
    # FIXME: quantity can be a float when it comes from the CSV import
    return (Decimal(price) * quantity).quantize(Decimal("0.01"), ROUND_HALF_UP)


def invoice_total(lines, discount=None):
    subtotal = sum((line_total(p, q) for p, q in lines), Decimal(0))
    if discount:
        # HACK: discounts above 100% are clamped here instead of rejected at input
        discount = min(discount, Decimal(1))
        subtotal *= 1 - discount
    # TODO: rounding differs from the accounting system by a cent on some invoices
    return subtotal * (1 + VAT_RATE)


def invoice_number(year, sequence):
    # FIXME: sequence resets are not thread-safe
    return f"INV-{year}-{sequence:05d}"


def render(invoice):
    # XXX: temporary plain-text output until the PDF renderer lands
    # TODO: add the company address block
    lines = [f"{invoice['number']}", "-" * 20]
    for item in invoice["items"]:
        lines.append(f"{item['name']:<30}{item['total']:>10}")
    # FIXME: currency symbol is hard-coded
    lines.append(f"{'Total':<30}{'£' + str(invoice['total']):>10}")
    return "\n".join(lines)

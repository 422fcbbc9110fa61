"""Fixed ground truth for Mbpp/593 (removezero_ip).

category: bad-logic
witness: ["01.2.3.4"]
reason: the original deletes the zeroes that follow each dot (a regular expression), so it
keeps the leading zeroes of the first part (removezero_ip('01.2.3.4') gives '01.2.3.4')
and deletes a part that is all zeroes ('1.0.3' gives '1..3'). Each part of the address
loses its leading zeroes and keeps one digit: '1.2.3.4', '1.0.3' (found by review of the
kills: seven base-passing samples of two families strip the first part too).
"""


def removezero_ip(ip):
    return ".".join(part.lstrip("0") or "0" for part in ip.split("."))

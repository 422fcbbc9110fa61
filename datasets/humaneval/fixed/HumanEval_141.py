"""Fixed ground truth for HumanEval/141 (file_name_check).

category: edge-case
witness: ["é.txt"]
reason: the rules allow only a latin letter ('a'-'z', 'A'-'Z') first and count only the digits
'0'-'9', but the original tests with str.isalpha and str.isdigit, which also accept letters of
other scripts ('é') and digits such as '²'.
"""


def file_name_check(file_name):
    if file_name.count(".") != 1:
        return "No"
    name, extension = file_name.split(".")
    if extension not in ("txt", "exe", "dll"):
        return "No"
    if name == "" or not ("a" <= name[0] <= "z" or "A" <= name[0] <= "Z"):
        return "No"
    if sum(1 for c in file_name if "0" <= c <= "9") > 3:
        return "No"
    return "Yes"

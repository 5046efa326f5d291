| Knuth, TAOCP 7.2.2.1: an exact-cover problem with colours (XCC); exactly one solution
p q r | x y
p q x y:A
p r x:A y
p x:B
q x:A
r y:B

# cmake -DIN=file -DOUT=file.c -DNAME=symbol -P embed.cmake
file(READ ${IN} hex HEX)
string(LENGTH "${hex}" n)
math(EXPR len "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" body "${body}")
file(WRITE ${OUT} "/* generated from ${IN} */\n#include <stddef.h>\nconst unsigned char ${NAME}[] = {\n${body}\n};\nconst size_t ${NAME}_len = ${len};\n")

#ifndef SL_RULES_RULES_H
#define SL_RULES_RULES_H
#include "ir/ir.h"
#endif
